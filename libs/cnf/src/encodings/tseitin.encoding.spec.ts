import { describe, expect, it } from 'vitest';

import { CnfFormula } from '../cnf-formula.js';
import { constraintMismatches, gateMismatches, type InputAssignment } from '../testing/brute-force.js';
import type { Lit } from '../variable-pool.js';
import {
  andOf,
  defineAnd,
  defineOr,
  defineXor,
  iff,
  implies,
  orOf,
  trueLit,
  xorOf,
} from './tseitin.encoding.js';

/** Input lists over variables 1..m: plain, mixed signs, and with a repeat (and a complement). */
function inputLists(n: number): { name: string; vars: number[]; lits: Lit[] }[] {
  const vars = Array.from({ length: n }, (_, i) => i + 1);
  const lists = [
    { name: 'positive', vars, lits: vars },
    { name: 'mixed signs', vars, lits: vars.map((v) => (v % 2 === 0 ? -v : v)) },
  ];
  if (n >= 2) lists.push({ name: 'repeat', vars: vars.slice(0, n - 1), lits: [...vars.slice(0, n - 1), 1] });
  if (n >= 2)
    lists.push({ name: 'complement', vars: vars.slice(0, n - 1), lits: [...vars.slice(0, n - 1), -1] });
  return lists;
}

function formulaOver(vars: readonly number[]): CnfFormula {
  const f = new CnfFormula();
  f.pool.reserve(vars.length);
  return f;
}

const GATES = [
  { gate: andOf, fn: (a: InputAssignment, lits: readonly Lit[]) => lits.every((l) => a.value(l)) },
  { gate: orOf, fn: (a: InputAssignment, lits: readonly Lit[]) => lits.some((l) => a.value(l)) },
  {
    gate: xorOf,
    fn: (a: InputAssignment, lits: readonly Lit[]) => lits.filter((l) => a.value(l)).length % 2 === 1,
  },
];

for (const { gate, fn } of GATES) {
  describe(gate.name, () => {
    for (let n = 0; n <= 6; n++) {
      for (const { name, vars, lits } of inputLists(n)) {
        it(`returns a literal equal to the function of ${n} inputs (${name})`, () => {
          const sut = formulaOver(vars);
          const out = gate(sut, lits);
          expect(gateMismatches(sut, vars, out, (a) => fn(a, lits))).toEqual([]);
        });
      }
    }
  });
}

describe(andOf.name, () => {
  it('folds: one input is returned itself, no input is the shared true literal', () => {
    const sut = new CnfFormula();
    const x = sut.pool.fresh();
    expect(andOf(sut, [x, x])).toBe(x);
    expect(sut.numClauses).toBe(0);
    const t = andOf(sut, []);
    expect(t).toBe(trueLit(sut));
    expect(orOf(sut, [])).toBe(-t);
    expect(andOf(sut, [x, -x])).toBe(-t);
    expect(sut.numVars).toBe(2);
  });
});

describe(trueLit.name, () => {
  it('is one variable forced true, created once per formula', () => {
    const sut = new CnfFormula();
    const t = trueLit(sut);
    expect(trueLit(sut)).toBe(t);
    expect(gateMismatches(sut, [], t, () => true)).toEqual([]);
    expect(trueLit(new CnfFormula())).toBe(1);
  });
});

const DEFINITIONS = [
  { define: defineAnd, fn: (a: InputAssignment, lits: readonly Lit[]) => lits.every((l) => a.value(l)) },
  { define: defineOr, fn: (a: InputAssignment, lits: readonly Lit[]) => lits.some((l) => a.value(l)) },
];

for (const { define, fn } of DEFINITIONS) {
  describe(define.name, () => {
    for (let n = 0; n <= 5; n++) {
      for (const { name, vars, lits } of inputLists(n)) {
        it(`makes the given output equal to the function of ${n} inputs (${name})`, () => {
          const sut = formulaOver(vars);
          const out = sut.pool.fresh();
          define(sut, -out, lits);
          expect(gateMismatches(sut, vars, -out, (a) => fn(a, lits))).toEqual([]);
        });
      }
    }
  });
}

describe(defineXor.name, () => {
  it.each([
    ['distinct', [1, 2]],
    ['mixed signs', [1, -2]],
    ['equal', [1, 1]],
    ['complementary', [1, -1]],
  ])('makes the output the exclusive or of two inputs (%s)', (_, [a, b]) => {
    const vars = [...new Set([Math.abs(a!), Math.abs(b!)])];
    const sut = formulaOver(vars);
    const out = sut.pool.fresh();
    defineXor(sut, out, a!, b!);
    expect(gateMismatches(sut, vars, out, (x) => x.value(a!) !== x.value(b!))).toEqual([]);
  });
});

describe(iff.name, () => {
  it('holds exactly when both sides are equal', () => {
    const sut = formulaOver([1, 2]);
    iff(sut, 1, -2);
    expect(constraintMismatches(sut, [1, 2], (a) => a.value(1) === a.value(-2))).toEqual([]);
  });

  it('of a literal with itself is no constraint, with its negation a contradiction', () => {
    const same = formulaOver([1]);
    iff(same, 1, 1);
    expect(constraintMismatches(same, [1], () => true)).toEqual([]);
    const opposite = formulaOver([1]);
    iff(opposite, 1, -1);
    expect(constraintMismatches(opposite, [1], () => false)).toEqual([]);
  });
});

describe(implies.name, () => {
  it('holds exactly when the premise is false or the conclusion true', () => {
    const sut = formulaOver([1, 2]);
    implies(sut, -1, 2);
    expect(sut.numClauses).toBe(1);
    expect(constraintMismatches(sut, [1, 2], (a) => !a.value(-1) || a.value(2))).toEqual([]);
  });
});
