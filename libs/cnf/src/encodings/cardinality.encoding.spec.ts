import { describe, expect, it } from 'vitest';

import { CnfFormula } from '../cnf-formula.js';
import { constraintMismatches, type InputAssignment } from '../testing/brute-force.js';
import type { Lit } from '../variable-pool.js';
import { atLeastK, atMostK, type CardinalityEncoding, exactlyK } from './cardinality.encoding.js';
import type { EncodingSink } from './encoding-sink.js';

const ENCODINGS: CardinalityEncoding[] = ['sequential', 'totalizer'];

type Constraint = (
  sink: EncodingSink,
  lits: readonly Lit[],
  k: number,
  encoding: CardinalityEncoding,
) => void;

const CASES: { constraint: Constraint; holds: (count: number, k: number) => boolean }[] = [
  { constraint: atMostK, holds: (count, k) => count <= k },
  { constraint: atLeastK, holds: (count, k) => count >= k },
  { constraint: exactlyK, holds: (count, k) => count === k },
];

function literalLists(n: number): { name: string; vars: number[]; lits: Lit[] }[] {
  const vars = Array.from({ length: n }, (_, i) => i + 1);
  const lists = [
    { name: 'positive', vars, lits: vars },
    { name: 'mixed signs', vars, lits: vars.map((v) => (v % 3 === 0 ? -v : v)) },
  ];
  if (n >= 3) {
    const few = vars.slice(0, n - 2);
    lists.push({ name: 'repeat and complement', vars: few, lits: [...few, few[0]!, -few[few.length - 1]!] });
  }
  return lists;
}

const trueCount = (a: InputAssignment, lits: readonly Lit[]): number => lits.filter((l) => a.value(l)).length;

for (const { constraint, holds } of CASES) {
  describe(constraint.name, () => {
    for (const encoding of ENCODINGS) {
      for (let n = 0; n <= 7; n++) {
        for (const { name, vars, lits } of literalLists(n)) {
          it(`${encoding}: holds exactly as the bound says on ${n} literals (${name}), k = -1..n+1`, () => {
            const wrong: string[] = [];
            for (let k = -1; k <= n + 1; k++) {
              const sut = new CnfFormula();
              sut.pool.reserve(vars.length);
              constraint(sut, lits, k, encoding);
              const mismatches = constraintMismatches(sut, vars, (a) => holds(trueCount(a, lits), k));
              wrong.push(...mismatches.map((m) => `k=${k}: ${m}`));
            }
            expect(wrong).toEqual([]);
          });
        }
      }
    }

    it('rejects a bound that is not an integer and an unknown encoding', () => {
      const sut = new CnfFormula();
      const lits = sut.pool.freshBlock(4);
      expect(() => constraint(sut, lits, 1.5, 'sequential')).toThrow(RangeError);
      expect(() => constraint(sut, lits, 2, 'binomial' as CardinalityEncoding)).toThrow(/binomial/);
    });
  });
}

describe('cardinality trivial bounds', () => {
  it('adds no variable when the bound fixes every literal or nothing', () => {
    for (const encoding of ENCODINGS) {
      const sut = new CnfFormula();
      const lits = sut.pool.freshBlock(5);
      atMostK(sut, lits, 0, encoding);
      atMostK(sut, lits, 5, encoding);
      atLeastK(sut, lits, 0, encoding);
      atLeastK(sut, lits, 5, encoding);
      exactlyK(sut, lits, 0, encoding);
      exactlyK(sut, lits, 5, encoding);
      expect(sut.numVars).toBe(5);
    }
  });
});
