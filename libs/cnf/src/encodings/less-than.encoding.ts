/*
 * "when -> x < y" for two unsigned binary numbers of the same width, as used by rank and depth
 * encodings of acyclicity (a node fed by another must have a higher rank).
 * Variables: bits - 1 auxiliaries.  Clauses: 3 bits.
 */
import type { Lit } from '../variable-pool.js';
import type { EncodingSink } from './encoding-sink.js';

/**
 * Adds `when -> x < y` for `bits`-bit unsigned numbers whose bit i (0 least significant) is
 * `x(i)` / `y(i)`: lt(i) means x[i..0] < y[i..0], with lt(bits-1) = `when`, and lt(i) -> (x_i < y_i)
 * or (x_i = y_i and lt(i-1)); lt(-1) is false. Only the implication is encoded: `when` false
 * leaves x and y free.
 */
export function lessThan(
  sink: EncodingSink,
  when: Lit,
  bits: number,
  x: (i: number) => Lit,
  y: (i: number) => Lit,
): void {
  let lt = when;
  for (let i = bits - 1; i >= 0; i--) {
    sink.add([-lt, -x(i), y(i)]);
    if (i === 0) {
      sink.add([-lt, -x(0)]);
      sink.add([-lt, y(0)]);
    } else {
      const lower = sink.pool.fresh();
      sink.add([-lt, -x(i), lower]);
      sink.add([-lt, y(i), lower]);
      lt = lower;
    }
  }
}
