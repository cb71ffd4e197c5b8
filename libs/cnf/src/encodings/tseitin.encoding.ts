/*
 * Tseitin definitions of gates over m input literals.
 * and / or: 1 variable (the output) and m+1 clauses (m binary, one of m+1 literals).
 * xor: a chain of m-1 two-input gates, m-1 variables and 4(m-1) ternary clauses.
 * Constants: the first constant asked of a sink costs 1 variable and 1 unit clause, shared after.
 * iff: 2 binary clauses; implies: 1 binary clause.
 */
import type { Lit } from '../variable-pool.js';
import { addClause, type EncodingSink } from './encoding-sink.js';

const trueLits = new WeakMap<EncodingSink, Lit>();

/** A literal fixed to true by a unit clause, created once per sink. `-trueLit(sink)` is false. */
export function trueLit(sink: EncodingSink): Lit {
  let t = trueLits.get(sink);
  if (t === undefined) {
    t = sink.pool.fresh();
    sink.add([t]);
    trueLits.set(sink, t);
  }
  return t;
}

/** Adds `out <-> (lits[0] & lits[1] & ...)`; with no literal, `out` is forced true. */
export function defineAnd(sink: EncodingSink, out: Lit, lits: readonly Lit[]): void {
  const all: Lit[] = [out];
  for (const lit of lits) {
    addClause(sink, [-out, lit]);
    all.push(-lit);
  }
  addClause(sink, all);
}

/** Adds `out <-> (lits[0] | lits[1] | ...)`; with no literal, `out` is forced false. */
export function defineOr(sink: EncodingSink, out: Lit, lits: readonly Lit[]): void {
  defineAnd(
    sink,
    -out,
    lits.map((lit) => -lit),
  );
}

/** Adds `out <-> (a xor b)`. */
export function defineXor(sink: EncodingSink, out: Lit, a: Lit, b: Lit): void {
  addClause(sink, [-out, a, b]);
  addClause(sink, [-out, -a, -b]);
  addClause(sink, [out, -a, b]);
  addClause(sink, [out, a, -b]);
}

/**
 * A literal equivalent to the conjunction of `lits`. Folds what needs no gate: no literal gives
 * {@link trueLit}, a literal and its negation give its negation, a single distinct literal is
 * returned itself; repeated literals count once.
 */
export function andOf(sink: EncodingSink, lits: readonly Lit[]): Lit {
  const distinct = [...new Set(lits)];
  if (distinct.length === 0) return trueLit(sink);
  if (distinct.some((lit) => distinct.includes(-lit))) return -trueLit(sink);
  if (distinct.length === 1) return distinct[0]!;
  const out = sink.pool.fresh();
  defineAnd(sink, out, distinct);
  return out;
}

/**
 * A literal equivalent to the disjunction of `lits`, folded as {@link andOf} is: no literal gives
 * the false literal `-trueLit(sink)`, a literal and its negation give `trueLit(sink)`.
 */
export function orOf(sink: EncodingSink, lits: readonly Lit[]): Lit {
  return -andOf(
    sink,
    lits.map((lit) => -lit),
  );
}

/**
 * A literal equivalent to the parity (exclusive or) of `lits`: no literal gives the false literal,
 * one literal is returned itself, and the others are chained through two-input gates.
 */
export function xorOf(sink: EncodingSink, lits: readonly Lit[]): Lit {
  if (lits.length === 0) return -trueLit(sink);
  let acc = lits[0]!;
  for (let i = 1; i < lits.length; i++) {
    const out = sink.pool.fresh();
    defineXor(sink, out, acc, lits[i]!);
    acc = out;
  }
  return acc;
}

/** Adds `a <-> b` (two binary clauses). */
export function iff(sink: EncodingSink, a: Lit, b: Lit): void {
  addClause(sink, [-a, b]);
  addClause(sink, [a, -b]);
}

/** Adds `a -> b` (one binary clause). */
export function implies(sink: EncodingSink, a: Lit, b: Lit): void {
  addClause(sink, [-a, b]);
}
