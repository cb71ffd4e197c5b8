/*
 * At-most-one and exactly-one behind one call, the encoding chosen by name.
 * Variables and clauses: those of the chosen encoding (see pairwise.encoding.ts,
 * sequential-counter.encoding.ts, commander.encoding.ts); exactly-one adds one clause of n literals.
 */
import type { Lit } from '../variable-pool.js';
import { commanderAtMostOne } from './commander.encoding.js';
import { addClause, type EncodingSink } from './encoding-sink.js';
import { pairwiseAtMostOne } from './pairwise.encoding.js';
import { sequentialAtMostK } from './sequential-counter.encoding.js';

/**
 * How an at-most-one constraint becomes clauses:
 * - `pairwise`: n(n-1)/2 binary clauses, no auxiliaries;
 * - `sequential`: Sinz's sequential counter, n-1 auxiliaries, 3n-4 clauses;
 * - `commander`: Klieber–Kwon commanders over groups of 3, ~n/2 auxiliaries, ~3.5n clauses;
 * - `auto`: pairwise up to {@link AUTO_PAIRWISE_LIMIT} literals, commander above, the faster
 *   on large groups (docs/solvers.md#at-most-one-and-cardinality-encodings).
 */
export type AmoEncoding = 'pairwise' | 'sequential' | 'commander' | 'auto';

/** The largest literal count for which `auto` picks the pairwise encoding. */
export const AUTO_PAIRWISE_LIMIT = 6;

/**
 * Adds "at most one of `lits` is true". Literals are counted by position: a literal listed twice
 * cannot be true, and with both `x` and `-x` listed every other literal must be false. Zero or one
 * literal adds nothing.
 */
export function atMostOne(sink: EncodingSink, lits: readonly Lit[], encoding: AmoEncoding = 'auto'): void {
  if (lits.length <= 1) return;
  switch (encoding) {
    case 'pairwise':
      return pairwiseAtMostOne(sink, lits);
    case 'sequential':
      return sequentialAtMostK(sink, lits, 1);
    case 'commander':
      return commanderAtMostOne(sink, lits);
    case 'auto':
      return lits.length <= AUTO_PAIRWISE_LIMIT
        ? pairwiseAtMostOne(sink, lits)
        : commanderAtMostOne(sink, lits);
    default:
      throw new RangeError(`unknown at-most-one encoding '${String(encoding)}'`);
  }
}

/**
 * Adds "exactly one of `lits` is true": {@link atMostOne} plus the clause of all of `lits`.
 * No literal at all gives the empty clause (unsatisfiable); one literal gives a unit clause.
 */
export function exactlyOne(sink: EncodingSink, lits: readonly Lit[], encoding: AmoEncoding = 'auto'): void {
  atMostOne(sink, lits, encoding);
  addClause(sink, lits);
}
