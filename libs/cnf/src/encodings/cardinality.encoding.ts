/*
 * At-most-k, at-least-k and exactly-k behind one call, the encoding chosen by name.
 * sequential: at most k of n is Sinz's counter, (n-1)k - k(k-1)/2 variables and
 *   2nk + n - k^2 - 3k clauses; at least k is a counter of width k with its lower clauses,
 *   V = nk - k(k-1)/2 variables and 2V - n + 1 clauses; exactly k is a counter of width k+1 with
 *   both directions, V = n(k+1) - k(k+1)/2 variables and 4V - n - k + 1 clauses.
 * totalizer: one totalizer with `limit` k+1 (at least k: limit k), the bounds it needs, and one or
 *   two unit clauses; O(n log k) variables and O(n k) clauses.
 * Trivial bounds add no variables: an impossible bound adds the empty clause, a bound that fixes
 *   every literal adds unit clauses, at least 1 is one clause, and a bound always met adds nothing.
 */
import type { Lit } from '../variable-pool.js';
import { addClause, type EncodingSink } from './encoding-sink.js';
import { sequentialAtMostK, sequentialCounter } from './sequential-counter.encoding.js';
import { totalizer } from './totalizer.encoding.js';

/**
 * How a cardinality constraint becomes clauses:
 * - `sequential`: Sinz's sequential counter, O(n k) variables and clauses;
 * - `totalizer`: Bailleux–Boufkhad's totalizer, O(n log k) variables and O(n k) clauses; the
 *   default, being the smaller of the two (docs/solvers.md#at-most-one-and-cardinality-encodings).
 */
export type CardinalityEncoding = 'sequential' | 'totalizer';

/**
 * Adds "at most `k` of `lits` are true" (literals counted by position). `k < 0` adds the empty
 * clause, `k = 0` makes every literal false, `k >= lits.length` adds nothing.
 */
export function atMostK(
  sink: EncodingSink,
  lits: readonly Lit[],
  k: number,
  encoding: CardinalityEncoding = 'totalizer',
): void {
  checkBound(k, encoding);
  const n = lits.length;
  if (k < 0) return sink.add([]);
  if (k >= n) return;
  if (k === 0) return forceAll(sink, lits, false);
  if (encoding === 'sequential') return sequentialAtMostK(sink, lits, k);
  const outputs = totalizer(sink, lits, { bounds: 'upper', limit: k + 1 });
  sink.add([-outputs[k]!]);
}

/**
 * Adds "at least `k` of `lits` are true" (literals counted by position). `k <= 0` adds nothing,
 * `k = lits.length` makes every literal true, `k > lits.length` adds the empty clause.
 */
export function atLeastK(
  sink: EncodingSink,
  lits: readonly Lit[],
  k: number,
  encoding: CardinalityEncoding = 'totalizer',
): void {
  checkBound(k, encoding);
  const n = lits.length;
  if (k <= 0) return;
  if (k > n) return sink.add([]);
  if (k === n) return forceAll(sink, lits, true);
  if (k === 1) return addClause(sink, lits);
  const options = { bounds: 'lower', limit: k } as const;
  const outputs =
    encoding === 'sequential' ? sequentialCounter(sink, lits, options) : totalizer(sink, lits, options);
  sink.add([outputs[k - 1]!]);
}

/**
 * Adds "exactly `k` of `lits` are true" (literals counted by position). `k < 0` or `k > n` adds the
 * empty clause, `k = 0` and `k = n` add unit clauses.
 */
export function exactlyK(
  sink: EncodingSink,
  lits: readonly Lit[],
  k: number,
  encoding: CardinalityEncoding = 'totalizer',
): void {
  checkBound(k, encoding);
  const n = lits.length;
  if (k < 0 || k > n) return sink.add([]);
  if (k === 0 || k === n) return forceAll(sink, lits, k === n);
  const options = { bounds: 'both', limit: k + 1 } as const;
  const outputs =
    encoding === 'sequential' ? sequentialCounter(sink, lits, options) : totalizer(sink, lits, options);
  sink.add([outputs[k - 1]!]);
  sink.add([-outputs[k]!]);
}

function checkBound(k: number, encoding: CardinalityEncoding): void {
  if (!Number.isInteger(k)) throw new RangeError(`cardinality bound must be an integer, got ${k}`);
  if (encoding !== 'sequential' && encoding !== 'totalizer') {
    throw new RangeError(`unknown cardinality encoding '${String(encoding)}'`);
  }
}

function forceAll(sink: EncodingSink, lits: readonly Lit[], value: boolean): void {
  for (const lit of lits) sink.add([value ? lit : -lit]);
}
