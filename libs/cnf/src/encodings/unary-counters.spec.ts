import { describe, expect, it } from 'vitest';

import { CnfFormula } from '../cnf-formula.js';
import { CountingSink } from '../counting-sink.js';
import { constraintMismatches, gateMismatches, type InputAssignment } from '../testing/brute-force.js';
import type { Lit } from '../variable-pool.js';
import { sequentialCounter } from './sequential-counter.encoding.js';
import { totalizer } from './totalizer.encoding.js';

function literalLists(n: number): { name: string; vars: number[]; lits: Lit[] }[] {
  const vars = Array.from({ length: n }, (_, i) => i + 1);
  const lists = [
    { name: 'positive', vars, lits: vars },
    { name: 'mixed signs', vars, lits: vars.map((v) => (v % 2 === 1 ? -v : v)) },
  ];
  if (n >= 3) {
    const few = vars.slice(0, n - 2);
    lists.push({ name: 'repeat and complement', vars: few, lits: [few[0]!, ...few, -few[0]!] });
  }
  return lists;
}

const trueCount = (a: InputAssignment, lits: readonly Lit[]): number => lits.filter((l) => a.value(l)).length;

function formulaOver(vars: readonly number[]): CnfFormula {
  const f = new CnfFormula();
  f.pool.reserve(vars.length);
  return f;
}

for (const build of [totalizer, sequentialCounter]) {
  describe(build.name, () => {
    for (let n = 0; n <= 7; n++) {
      for (const { name, vars, lits } of literalLists(n)) {
        it(`both: output i is "at least i+1 true" on ${n} literals (${name}), for every limit`, () => {
          const wrong: string[] = [];
          for (let limit = 0; limit <= n; limit++) {
            const sut = formulaOver(vars);
            const outputs = build(sut, lits, { bounds: 'both', limit });
            expect(outputs).toHaveLength(Math.min(limit, n));
            outputs.forEach((out, i) => {
              const m = gateMismatches(sut, vars, out, (a) => trueCount(a, lits) >= i + 1);
              wrong.push(...m.map((s) => `limit ${limit}, output ${i}: ${s}`));
            });
          }
          expect(wrong).toEqual([]);
        });

        it(`upper: -outputs[k] holds exactly when at most k of ${n} literals (${name}) are true`, () => {
          const wrong: string[] = [];
          for (let limit = 1; limit <= n; limit++) {
            const sut = formulaOver(vars);
            const outputs = build(sut, lits, { bounds: 'upper', limit });
            wrong.push(
              ...constraintMismatches(sut, vars, () => true).map((s) => `limit ${limit}, no bound: ${s}`),
            );
            outputs.forEach((out, k) => {
              const m = constraintMismatches(sut, vars, (a) => trueCount(a, lits) <= k, [-out]);
              wrong.push(...m.map((s) => `limit ${limit}, at most ${k}: ${s}`));
            });
          }
          expect(wrong).toEqual([]);
        });

        it(`lower: outputs[k-1] holds exactly when at least k of ${n} literals (${name}) are true`, () => {
          const wrong: string[] = [];
          for (let limit = 1; limit <= n; limit++) {
            const sut = formulaOver(vars);
            const outputs = build(sut, lits, { bounds: 'lower', limit });
            wrong.push(
              ...constraintMismatches(sut, vars, () => true).map((s) => `limit ${limit}, no bound: ${s}`),
            );
            outputs.forEach((out, i) => {
              const m = constraintMismatches(sut, vars, (a) => trueCount(a, lits) >= i + 1, [out]);
              wrong.push(...m.map((s) => `limit ${limit}, at least ${i + 1}: ${s}`));
            });
          }
          expect(wrong).toEqual([]);
        });
      }
    }

    it('bounds a count incrementally: unit clauses on its outputs tighten the bound', () => {
      const vars = [1, 2, 3, 4, 5, 6];
      const sut = formulaOver(vars);
      const outputs = build(sut, vars, { bounds: 'upper' });
      const count = (a: InputAssignment): number => trueCount(a, vars);
      sut.add([-outputs[3]!]);
      expect(constraintMismatches(sut, vars, (a) => count(a) <= 3)).toEqual([]);
      sut.add([-outputs[1]!]);
      expect(constraintMismatches(sut, vars, (a) => count(a) <= 1)).toEqual([]);
    });

    it('returns no output for no input or limit 0', () => {
      const sut = new CountingSink();
      expect(build(sut, [])).toEqual([]);
      expect(build(sut, sut.pool.freshBlock(4), { limit: 0 })).toEqual([]);
      expect(sut.stats.clauses).toBe(0);
    });

    it('with a limit, grows linearly: 400 inputs and limit 3 take under 12 clauses an input', () => {
      const sut = new CountingSink();
      build(sut, sut.pool.freshBlock(400), { bounds: 'upper', limit: 3 });
      expect(sut.stats.clauses).toBeLessThan(12 * 400);
      expect(sut.stats.vars - 400).toBeLessThan(3 * 400);
    });

    it('rejects a negative limit and unknown bounds', () => {
      const sut = new CountingSink();
      const lits = sut.pool.freshBlock(3);
      expect(() => build(sut, lits, { limit: -1 })).toThrow(RangeError);
      expect(() => build(sut, lits, { bounds: 'exact' as 'both' })).toThrow(/exact/);
    });
  });
}
