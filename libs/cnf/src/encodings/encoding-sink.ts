import type { ClauseSink } from '../cnf-formula.js';
import type { Lit, VariablePool } from '../variable-pool.js';

/**
 * What an encoding writes into: a clause sink that can also hand out auxiliary variables.
 * A `CnfFormula` is one; a `CountingSink` is another (it measures an encoding without storing it).
 */
export interface EncodingSink extends ClauseSink {
  readonly pool: VariablePool;
}

/**
 * Adds `lits` as one clause without repeated literals, and not at all when it holds a literal and
 * its negation. Encodings call it for clauses that mix caller literals, which may repeat.
 */
export function addClause(sink: ClauseSink, lits: readonly Lit[]): void {
  const out: Lit[] = [];
  for (const lit of lits) {
    if (out.includes(-lit)) return;
    if (!out.includes(lit)) out.push(lit);
  }
  sink.add(out);
}
