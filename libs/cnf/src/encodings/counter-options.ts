/**
 * Which directions of "output i is true iff at least i+1 inputs are true" a counter's clauses
 * enforce:
 * - `upper`: at least i+1 true inputs force output i true, so a clause `-outputs[k]` bounds the
 *   count to at most k;
 * - `lower`: output i true forces at least i+1 true inputs, so `outputs[k-1]` bounds it to at least k;
 * - `both`: both, and the outputs are the exact unary count in every model.
 */
export type CounterBounds = 'upper' | 'lower' | 'both';

/** Options of the counters that return unary outputs ({@link totalizer}, {@link sequentialCounter}). */
export interface CounterOptions {
  /** Which directions the clauses enforce (default `both`). */
  bounds?: CounterBounds;
  /**
   * How many outputs to build (default: one per input). With `limit` m the last output means "at
   * least m", enough to bound the count by m-1 from above or by m from below, in O(n m) clauses.
   */
  limit?: number;
}

/** The options with their defaults filled in, checked. */
export function counterOptions(options: CounterOptions, inputs: number): Required<CounterOptions> {
  const bounds = options.bounds ?? 'both';
  const limit = options.limit ?? inputs;
  if (!Number.isInteger(limit) || limit < 0) throw new RangeError(`counter limit must be >= 0, got ${limit}`);
  if (bounds !== 'upper' && bounds !== 'lower' && bounds !== 'both') {
    throw new RangeError(`unknown counter bounds '${String(bounds)}'`);
  }
  return { bounds, limit };
}
