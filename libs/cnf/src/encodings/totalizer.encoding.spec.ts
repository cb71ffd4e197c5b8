import { describe, expect, it } from 'vitest';

import { CountingSink } from '../counting-sink.js';
import { sequentialCounter } from './sequential-counter.encoding.js';
import { totalizer } from './totalizer.encoding.js';

describe(totalizer.name, () => {
  it('returns the literal itself for one input, with no clause', () => {
    const sut = new CountingSink();
    const x = sut.pool.fresh();
    expect(totalizer(sut, [x])).toEqual([x]);
    expect(sut.stats).toEqual({ vars: 1, clauses: 0, literals: 0 });
  });

  it('needs fewer variables than the sequential counter for 1000 inputs and limit 51', () => {
    const size = (build: typeof totalizer): number => {
      const sink = new CountingSink();
      build(sink, sink.pool.freshBlock(1000), { bounds: 'upper', limit: 51 });
      return sink.stats.vars - 1000;
    };
    expect(size(totalizer)).toBeLessThan(size(sequentialCounter) / 4);
  });
});
