import { describe, expect, it } from 'vitest';

import { CnfFormula } from '../cnf-formula.js';
import { constraintMismatches, type InputAssignment } from '../testing/brute-force.js';
import { lessThan } from './less-than.encoding.js';

/** Variables 1..bits are x (bit i at i + 1), bits+1..2 bits are y, 2 bits + 1 is `when`. */
function encoded(bits: number): { formula: CnfFormula; inputs: number[]; when: number } {
  const formula = new CnfFormula();
  formula.pool.reserve(2 * bits + 1);
  const when = 2 * bits + 1;
  lessThan(
    formula,
    when,
    bits,
    (i) => i + 1,
    (i) => bits + i + 1,
  );
  return { formula, inputs: Array.from({ length: 2 * bits + 1 }, (_, i) => i + 1), when };
}

const number = (a: InputAssignment, first: number, bits: number): number =>
  Array.from({ length: bits }, (_, i) => (a.value(first + i) ? 1 << i : 0)).reduce((s, b) => s + b, 0);

describe(lessThan.name, () => {
  for (const bits of [1, 2, 3]) {
    it(`with ${bits} bits, allows exactly x < y when it holds, and anything when it does not`, () => {
      const { formula, inputs, when } = encoded(bits);
      const holds = (a: InputAssignment): boolean =>
        !a.value(when) || number(a, 1, bits) < number(a, bits + 1, bits);
      expect(constraintMismatches(formula, inputs, holds)).toEqual([]);
    });
  }

  it(`uses bits - 1 auxiliaries and 3 bits clauses`, () => {
    const { formula } = encoded(4);
    expect(formula.numVars).toBe(2 * 4 + 1 + 3);
    expect(formula.numClauses).toBe(12);
  });
});
