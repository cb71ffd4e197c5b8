import { describe, expect, it } from 'vitest';

import { CnfFormula } from '../cnf-formula.js';
import { CountingSink } from '../counting-sink.js';
import { constraintMismatches, type InputAssignment } from '../testing/brute-force.js';
import type { Lit } from '../variable-pool.js';
import { type AmoEncoding, atMostOne, exactlyOne } from './at-most-one.encoding.js';

const ENCODINGS: AmoEncoding[] = ['pairwise', 'sequential', 'commander', 'auto'];

/** Literal lists over variables 1..m: plain, with mixed signs, and with a repeat and a complement. */
function literalLists(n: number): { name: string; vars: number[]; lits: Lit[] }[] {
  const vars = Array.from({ length: n }, (_, i) => i + 1);
  const lists = [
    { name: 'positive', vars, lits: vars },
    { name: 'mixed signs', vars, lits: vars.map((v) => (v % 2 === 0 ? -v : v)) },
  ];
  if (n >= 3) {
    const few = vars.slice(0, n - 2);
    lists.push({ name: 'repeat and complement', vars: few, lits: [...few, few[0]!, -few[few.length - 1]!] });
  }
  return lists;
}

function trueCount(a: InputAssignment, lits: readonly Lit[]): number {
  return lits.filter((lit) => a.value(lit)).length;
}

function build(vars: readonly number[], add: (f: CnfFormula) => void): CnfFormula {
  const f = new CnfFormula();
  f.pool.reserve(vars.length);
  add(f);
  return f;
}

describe(atMostOne.name, () => {
  for (const encoding of ENCODINGS) {
    for (let n = 0; n <= 9; n++) {
      for (const { name, vars, lits } of literalLists(n)) {
        it(`${encoding}: holds exactly when at most one of ${n} literals (${name}) is true`, () => {
          const f = build(vars, (sut) => atMostOne(sut, lits, encoding));
          expect(constraintMismatches(f, vars, (a) => trueCount(a, lits) <= 1)).toEqual([]);
        });
      }
    }
  }

  it.each(['sequential', 'commander'] as const)(
    '%s: on 22 literals, every assignment with at most two true literals is decided right',
    (encoding) => {
      const vars = Array.from({ length: 22 }, (_, i) => i + 1);
      const f = build(vars, (sut) => atMostOne(sut, vars, encoding));
      const wrong: string[] = [];
      for (let i = 0; i <= vars.length; i++) {
        for (let j = i; j <= vars.length; j++) {
          const truth = vars.map((v) => (v === i || v === j ? v : -v));
          const count = new Set([i, j].filter((v) => v > 0)).size;
          const sub = constraintMismatches(f, [], () => count <= 1, truth);
          wrong.push(...sub.map((s) => `true ${i},${j}: ${s}`));
        }
      }
      expect(wrong).toEqual([]);
    },
  );

  it('adds nothing for zero or one literal', () => {
    for (const encoding of ENCODINGS) {
      const sut = new CountingSink();
      const x = sut.pool.fresh();
      atMostOne(sut, [], encoding);
      atMostOne(sut, [x], encoding);
      expect(sut.stats).toEqual({ vars: 1, clauses: 0, literals: 0 });
    }
  });

  it('auto uses the pairwise encoding up to six literals and commanders above', () => {
    const size = (n: number, encoding: AmoEncoding): number => {
      const sut = new CountingSink();
      atMostOne(sut, sut.pool.freshBlock(n), encoding);
      return sut.stats.clauses;
    };
    expect(size(6, 'auto')).toBe(size(6, 'pairwise'));
    expect(size(7, 'auto')).toBe(size(7, 'commander'));
    expect(size(50, 'auto')).toBe(size(50, 'commander'));
  });

  it('commander and sequential use fewer clauses than pairwise on 50 literals', () => {
    const clauses = (encoding: AmoEncoding): number => {
      const sut = new CountingSink();
      atMostOne(sut, sut.pool.freshBlock(50), encoding);
      return sut.stats.clauses;
    };
    expect(clauses('pairwise')).toBe((50 * 49) / 2);
    expect(clauses('sequential')).toBe(3 * 50 - 4);
    expect(clauses('sequential')).toBeLessThan(clauses('pairwise'));
    expect(clauses('commander')).toBeLessThan(clauses('pairwise'));
  });

  it('rejects an unknown encoding name', () => {
    const sut = new CnfFormula();
    expect(() => atMostOne(sut, sut.pool.freshBlock(3), 'ladder' as AmoEncoding)).toThrow(/ladder/);
  });
});

describe(exactlyOne.name, () => {
  for (const encoding of ENCODINGS) {
    for (let n = 0; n <= 9; n++) {
      for (const { name, vars, lits } of literalLists(n)) {
        it(`${encoding}: holds exactly when one of ${n} literals (${name}) is true`, () => {
          const f = build(vars, (sut) => exactlyOne(sut, lits, encoding));
          expect(constraintMismatches(f, vars, (a) => trueCount(a, lits) === 1)).toEqual([]);
        });
      }
    }
  }

  it('makes the formula unsatisfiable with no literal', () => {
    const sut = new CnfFormula();
    exactlyOne(sut, []);
    expect(Array.from(sut.clauses(), (c) => Array.from(c))).toEqual([[]]);
  });

  it('leaves every assignment of x and -x satisfiable, one of them being true', () => {
    const sut = new CnfFormula();
    const x = sut.pool.fresh();
    exactlyOne(sut, [x, -x], 'pairwise');
    expect(constraintMismatches(sut, [x], () => true)).toEqual([]);
  });
});
