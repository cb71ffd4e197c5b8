/*
 * Pairwise (binomial) at-most-one over n literals.
 * Variables: none. Clauses: n(n-1)/2 binary clauses (-a | -b), one per pair of positions.
 */
import type { Lit } from '../variable-pool.js';
import { addClause, type EncodingSink } from './encoding-sink.js';

/** At most one of `lits` is true, by forbidding every pair. Best for a handful of literals. */
export function pairwiseAtMostOne(sink: EncodingSink, lits: readonly Lit[]): void {
  for (let i = 0; i < lits.length; i++) {
    for (let j = i + 1; j < lits.length; j++) addClause(sink, [-lits[i]!, -lits[j]!]);
  }
}
