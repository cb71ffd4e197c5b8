import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';

import { CnfFormula } from '../cnf-formula.js';
import type { Lit } from '../variable-pool.js';
import { allAssignments, constraintMismatches, gateMismatches, isSatisfiable } from './brute-force.js';

function randomFormula(seed: number, vars: number, clauses: number): CnfFormula {
  const rng = xoroshiro128plus(seed);
  const f = new CnfFormula();
  f.pool.reserve(vars);
  for (let i = 0; i < clauses; i++) {
    const width = unsafeUniformIntDistribution(1, 3, rng);
    const clause: Lit[] = [];
    for (let j = 0; j < width; j++) {
      const v = unsafeUniformIntDistribution(1, vars, rng);
      clause.push(unsafeUniformIntDistribution(0, 1, rng) === 1 ? v : -v);
    }
    f.add(clause);
  }
  return f;
}

function satisfiableByTruthTable(f: CnfFormula, assumptions: readonly Lit[]): boolean {
  const vars = Array.from({ length: f.numVars }, (_, i) => i + 1);
  const clauses = Array.from(f.clauses(), (c) => Array.from(c));
  for (const a of allAssignments(vars)) {
    if (assumptions.every((l) => a.value(l)) && clauses.every((c) => c.some((l) => a.value(l)))) return true;
  }
  return false;
}

describe(isSatisfiable.name, () => {
  it('agrees with a truth table on 300 random formulas of 8 variables, with and without assumptions', () => {
    let satisfiable = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const f = randomFormula(seed, 8, 8 + (seed % 30));
      const assumptions = seed % 2 === 0 ? [] : [seed % 8 || 1, -((seed % 7) + 1)];
      const expected = satisfiableByTruthTable(f, assumptions);
      if (expected) satisfiable++;
      expect(isSatisfiable(f, assumptions), `seed ${seed}`).toBe(expected);
    }
    expect(satisfiable).toBeGreaterThan(30);
    expect(satisfiable).toBeLessThan(270);
  });

  it('treats the empty clause as unsatisfiable and contradictory assumptions as such', () => {
    const f = new CnfFormula();
    f.pool.reserve(1);
    expect(isSatisfiable(f, [1, -1])).toBe(false);
    f.add([]);
    expect(isSatisfiable(f)).toBe(false);
  });
});

describe(constraintMismatches.name, () => {
  it('names the assignments where a wrong encoding differs from the constraint', () => {
    const f = new CnfFormula();
    f.pool.reserve(2);
    f.add([-1, -2]);
    f.add([1]);
    expect(constraintMismatches(f, [1, 2], (a) => !(a.value(1) && a.value(2)))).toEqual([
      'inputs -1 -2: expected satisfiable',
      'inputs -1 2: expected satisfiable',
    ]);
  });
});

describe(gateMismatches.name, () => {
  it('reports an output that is free or wrong', () => {
    const f = new CnfFormula();
    f.pool.reserve(3);
    f.add([-3, 1]);
    expect(gateMismatches(f, [1], 3, (a) => a.value(1))).toEqual(['inputs 1: output can be false']);
  });
});
