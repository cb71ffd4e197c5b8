/*
 * Bailleux and Boufkhad's totalizer (2003): a balanced binary tree over the n inputs whose every
 * inner node holds the unary count of the inputs below it, truncated to `limit` bits.
 * Variables: min(size, limit) outputs per inner node, at most n per tree level: at most
 *   n * ceil(log2 n) in all, and about n * (log2(limit) + 1) when limit < n.
 * Clauses per inner node with children of p and q bits and r = min(p + q, limit) own bits
 *   (1-based bits; terms a_0, b_0 and bits past a child's last one are dropped):
 *   upper:  a_i & b_j -> o_(i+j)               for 0 <= i <= p, 0 <= j <= q, 1 <= i + j <= r
 *   lower: -a_(i+1) & -b_(j+1) -> -o_(i+j+1)   for 0 <= i <= p, 0 <= j <= q, i + j < r
 *   each family at most (p+1)(q+1) - 1 clauses: O(n^2) in all, O(n * limit) with a limit.
 */
import type { Lit } from '../variable-pool.js';
import { type CounterBounds, type CounterOptions, counterOptions } from './counter-options.js';
import { addClause, type EncodingSink } from './encoding-sink.js';

/**
 * Builds a totalizer over `lits` and returns its unary outputs: `outputs[i]` stands for "at least
 * i+1 of `lits` are true", in the directions `options.bounds` asks for (see {@link CounterBounds}). Nothing is asserted: the
 * caller bounds the count by adding `-outputs[k]` (at most k) or `outputs[k-1]` (at least k) as
 * clauses or as solver assumptions, and may tighten the bound later with another unit clause.
 * Literals are counted by position. With one input the output is that literal itself.
 */
export function totalizer(sink: EncodingSink, lits: readonly Lit[], options: CounterOptions = {}): Lit[] {
  const { bounds, limit } = counterOptions(options, lits.length);
  if (limit === 0 || lits.length === 0) return [];
  return countRange(sink, lits, 0, lits.length, limit, bounds);
}

function countRange(
  sink: EncodingSink,
  lits: readonly Lit[],
  from: number,
  to: number,
  limit: number,
  bounds: CounterBounds,
): Lit[] {
  if (to - from === 1) return [lits[from]!];
  const middle = (from + to) >>> 1;
  const a = countRange(sink, lits, from, middle, limit, bounds);
  const b = countRange(sink, lits, middle, to, limit, bounds);
  const out = sink.pool.freshBlock(Math.min(a.length + b.length, limit));
  const r = out.length;
  for (let i = 0; i <= a.length; i++) {
    for (let j = 0; j <= b.length; j++) {
      const s = i + j;
      if (bounds !== 'lower' && s >= 1 && s <= r) {
        const clause: Lit[] = [out[s - 1]!];
        if (i > 0) clause.push(-a[i - 1]!);
        if (j > 0) clause.push(-b[j - 1]!);
        addClause(sink, clause);
      }
      if (bounds !== 'upper' && s < r) {
        const clause: Lit[] = [-out[s]!];
        if (i < a.length) clause.push(a[i]!);
        if (j < b.length) clause.push(b[j]!);
        addClause(sink, clause);
      }
    }
  }
  return out;
}
