import type { HorizonPolicy } from '../horizon-policy.js';
import { initSweepState, markStarted, recordResult, type SweepState } from '../sweep-state.js';

/** A fresh sweep state for `policy`: the starting point of a policy's specs. */
export function sweepOf(policy: HorizonPolicy, lower: number, max: number, parallelism: number): SweepState {
  return initSweepState({ lower, max, parallelism, policy });
}

/** `t` started (at time 0). */
export function start(state: SweepState, t: number): SweepState {
  return markStarted(state, t, 0);
}

/** `t` started and answered `result`. */
export function answer(state: SweepState, t: number, result: 'sat' | 'unsat' | 'unknown'): SweepState {
  return recordResult(start(state, t), t, result).state;
}

/** Every horizon in [`from`, `to`) started and answered UNSAT, in order. */
export function unsatFrom(state: SweepState, from: number, to: number): SweepState {
  for (let t = from; t < to; t++) state = answer(state, t, 'unsat');
  return state;
}
