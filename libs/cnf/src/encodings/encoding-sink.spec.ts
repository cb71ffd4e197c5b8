import { describe, expect, it } from 'vitest';

import { CnfFormula } from '../cnf-formula.js';
import { addClause } from './encoding-sink.js';

describe(addClause.name, () => {
  it('writes each literal once and skips a clause holding a literal and its negation', () => {
    const sut = new CnfFormula();
    sut.pool.reserve(3);
    addClause(sut, [1, -2, 1, 3, -2]);
    addClause(sut, [1, 2, -1]);
    addClause(sut, []);
    expect(Array.from(sut.clauses(), (c) => Array.from(c))).toEqual([[1, -2, 3], []]);
  });
});
