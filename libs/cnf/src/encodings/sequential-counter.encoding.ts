/*
 * Sinz's sequential counter (2005): a register per input position holding, in unary, how many of
 * the inputs up to that position are true. r(i, j) = "at least j+1 of x_0..x_i are true", for
 * j < min(i+1, w) where w is the register width; bits with j > i would be constant false and are
 * left out, which also saves Sinz's k-1 unit clauses.
 *
 * sequentialAtMostK (LTseq, 1 <= k < n, width k, registers for positions 0..n-2):
 *   variables (n-1)k - k(k-1)/2 (n-1 for k = 1); clauses 2nk + n - k^2 - 3k (3n-4 for k = 1):
 *   x_i -> r(i, 0);  r(i-1, j) -> r(i, j);  x_i & r(i-1, j-1) -> r(i, j)   (counting up)
 *   x_i -> -r(i-1, k-1) for i = k..n-1                                     (overflow, n-k clauses)
 * sequentialCounter (width `limit` = w <= n, registers for positions 0..n-1):
 *   V = nw - w(w-1)/2 variables; 2V - w clauses for the upper direction (the counting-up clauses
 *   above) and 2V - n for the lower one:
 *   r(i, j) -> r(i-1, j) | x_i  and  r(i, j) -> r(i-1, j) | r(i-1, j-1)  (j >= 1),
 *   a missing r(i-1, j) being false.
 */
import type { Lit } from '../variable-pool.js';
import { type CounterBounds, type CounterOptions, counterOptions } from './counter-options.js';
import type { EncodingSink } from './encoding-sink.js';

/**
 * At most `k` of `lits` are true, by a sequential counter. Counts positions, so a literal listed
 * twice counts twice. Nothing is added when `k >= lits.length`; `k` must be at least 1 otherwise.
 */
export function sequentialAtMostK(sink: EncodingSink, lits: readonly Lit[], k: number): void {
  const n = lits.length;
  if (k >= n) return;
  if (!Number.isInteger(k) || k < 1) throw new RangeError(`sequential counter needs k >= 1, got ${k}`);
  let previous: Lit[] = [];
  for (let i = 0; i < n; i++) {
    const x = lits[i]!;
    if (previous.length === k) sink.add([-x, -previous[k - 1]!]);
    if (i === n - 1) break;
    previous = nextRegister(sink, previous, x, Math.min(i + 1, k), 'upper');
  }
}

/**
 * Builds a sequential counter over `lits` and returns its last register: `outputs[i]` stands for
 * "at least i+1 of `lits` are true", in the directions `options.bounds` asks for (see
 * {@link CounterBounds}), with `options.limit` outputs (default: one per input). Nothing is
 * asserted; the caller adds `-outputs[k]` (at most k) or `outputs[k-1]` (at least k).
 */
export function sequentialCounter(
  sink: EncodingSink,
  lits: readonly Lit[],
  options: CounterOptions = {},
): Lit[] {
  const { bounds, limit } = counterOptions(options, lits.length);
  let register: Lit[] = [];
  for (let i = 0; i < lits.length && limit > 0; i++) {
    register = nextRegister(sink, register, lits[i]!, Math.min(i + 1, limit), bounds);
  }
  return register;
}

/** The register after input `x`, `width` bits wide, given the register before it. */
function nextRegister(
  sink: EncodingSink,
  previous: readonly Lit[],
  x: Lit,
  width: number,
  bounds: CounterBounds,
): Lit[] {
  const register = sink.pool.freshBlock(width);
  for (let j = 0; j < width; j++) {
    const r = register[j]!;
    const same = previous[j];
    const below = j === 0 ? undefined : previous[j - 1]!;
    if (bounds !== 'lower') {
      if (same !== undefined) sink.add([-same, r]);
      sink.add(below === undefined ? [-x, r] : [-x, -below, r]);
    }
    if (bounds !== 'upper') {
      sink.add(same === undefined ? [-r, x] : [-r, same, x]);
      if (below !== undefined) sink.add(same === undefined ? [-r, below] : [-r, same, below]);
    }
  }
  return register;
}
