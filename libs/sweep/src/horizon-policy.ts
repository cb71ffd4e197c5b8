import type { HorizonRecord, HorizonState } from './sweep-state.js';

/**
 * What a policy sees when it picks horizons: the bounds, how many horizons to pick, and every
 * horizon record of the sweep. "Free" horizons are the ones it may pick: inside
 * [`lower`, `high`], never started or cancelled without being dominated, and not answered
 * `unknown` (an unknown horizon is never retried).
 */
export interface HorizonPolicyView {
  readonly lower: number;
  readonly upper: number | undefined;
  readonly max: number;
  /** The sweep's lower bound when it started (the game's admissible lower bound). */
  readonly initialLower: number;
  /** The highest horizon that may be picked: min(`upper` - 1, `max`). */
  readonly high: number;
  /** The sweep's patience (see `HorizonRun`), when its patient probes have a time limit. */
  readonly patienceMs: number | undefined;
  /** How many horizons to pick (in-flight horizons already fill the rest of the parallelism). */
  readonly slots: number;
  /** Every horizon record, sorted by `t`. */
  readonly horizons: readonly HorizonRecord[];
  stateOf(t: number): HorizonState | undefined;
  isFree(t: number): boolean;
  /** The lowest free horizons at or above `from`, at most `count` of them, skipping `exclude`. */
  freeFrom(from: number, count: number, exclude?: readonly number[]): number[];
}

/**
 * One horizon a policy chooses: `t`, or `{ t, patient: true }` for a probe that gives way when the
 * sweep's patience runs out (see `HorizonRun`).
 */
export type HorizonChoice = number | { readonly t: number; readonly patient: true };

/** The horizon of a choice. */
export function choiceHorizon(choice: HorizonChoice): number {
  return typeof choice === 'number' ? choice : choice.t;
}

/**
 * A horizon-choice policy: which free horizons a sweep starts next. Policies are stateless (all
 * they know comes from the view), so a sweep state restored from JSON continues with the same
 * choices. `choose` returns at most `view.slots` distinct free horizons, most wanted first.
 */
export interface HorizonPolicy {
  readonly name: string;
  /** Whether it makes patient choices, so that a sweep's patience has any effect on it. */
  readonly patient?: boolean;
  choose(view: HorizonPolicyView): HorizonChoice[];
}

/**
 * The reason of a cancelled horizon that ran out of patience: a probe that found no answer within
 * its time limit and made way for another horizon. It stays free: a policy may start it again
 * (with twice the time it had), and one that climbs from `lower` runs it without a limit.
 */
export const GAVE_WAY = 'gave way';

/** Whether `record` is a probe that ran out of patience (cancelled, free to run again). */
export function gaveWay(record: HorizonRecord | undefined): boolean {
  return record?.state === 'cancelled' && record.reason === GAVE_WAY;
}
