import { describe, expect, it } from 'vitest';

import { CnfFormula } from './cnf-formula.js';
import { CountingSink } from './counting-sink.js';
import { atMostK } from './encodings/cardinality.encoding.js';

describe(CountingSink.name, () => {
  it('reports the same statistics as a formula built by the same encoding', () => {
    const formula = new CnfFormula();
    const sut = new CountingSink();
    for (const sink of [formula, sut]) atMostK(sink, sink.pool.freshBlock(30), 4, 'totalizer');
    expect(sut.stats).toEqual(formula.stats);
    expect(sut.longestClause).toBe(Math.max(...Array.from(formula.clauses(), (c) => c.length)));
  });

  it('rejects zero, fractional and unallocated literals', () => {
    const sut = new CountingSink();
    sut.pool.freshBlock(2);
    expect(() => sut.add([1, 0])).toThrow(RangeError);
    expect(() => sut.add([1.5])).toThrow(RangeError);
    expect(() => sut.add([-3])).toThrow(/unallocated/);
    expect(sut.stats.clauses).toBe(0);
  });
});
