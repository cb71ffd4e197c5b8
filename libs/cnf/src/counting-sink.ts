import type { FormulaStats } from './cnf-formula.js';
import type { EncodingSink } from './encodings/encoding-sink.js';
import { type Lit, VariablePool } from './variable-pool.js';

/**
 * A sink that only counts: hands out variables and tallies clauses and literals without storing
 * them, to measure an encoding's size (e.g. to compare encodings in a benchmark).
 */
export class CountingSink implements EncodingSink {
  private clauseCount = 0;
  private literalCount = 0;
  private longest = 0;

  constructor(readonly pool: VariablePool = new VariablePool()) {}

  add(clause: readonly Lit[]): void {
    for (const lit of clause) {
      if (!Number.isInteger(lit) || lit === 0) throw new RangeError(`invalid literal ${lit}`);
      if (Math.abs(lit) > this.pool.size)
        throw new RangeError(`literal ${lit} names an unallocated variable`);
    }
    this.clauseCount++;
    this.literalCount += clause.length;
    this.longest = Math.max(this.longest, clause.length);
  }

  /** Variables handed out by the pool and clauses and literals added so far. */
  get stats(): FormulaStats {
    return { vars: this.pool.size, clauses: this.clauseCount, literals: this.literalCount };
  }

  /** The length of the longest clause added so far (0 when none). */
  get longestClause(): number {
    return this.longest;
  }
}
