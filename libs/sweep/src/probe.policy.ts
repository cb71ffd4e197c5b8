import { consecutivePolicy } from './consecutive.policy.js';
import type { HorizonPolicy, HorizonPolicyView } from './horizon-policy.js';

/**
 * `probe`: looks for an upper bound early, for instances whose optimum lies far above the lower
 * bound, where the UNSAT proofs just below the optimum are the slow ones.
 *
 * While no plan is known, one slot stays on the lowest open horizon (the lowest in [`lower`,
 * `high`] not answered `unknown`) so that `lower` keeps rising; the other slots climb a ladder of
 * rungs `initialLower` + 1, 2, 4, 8, ... above the highest horizon tried so far, the last rung
 * capped at `high` (probing the cap early proves "no plan within max" quickly too). The ladder is
 * anchored at the initial lower bound rather than the moving `lower`, so that it keeps climbing
 * while the lowest slot catches up with it. Slots left once the ladder reaches `high` are filled
 * from `lower` upwards. As soon as a plan bounds the search from above, it behaves as
 * `consecutive`. With parallelism 1 the single slot stays on the lowest horizon, so it is
 * `consecutive`.
 */
export const probePolicy: HorizonPolicy = {
  name: 'probe',
  choose(view: HorizonPolicyView): number[] {
    if (view.upper !== undefined) return consecutivePolicy.choose(view);
    const chosen: number[] = [];
    const floor = lowestOpen(view);
    if (floor !== undefined && view.isFree(floor)) chosen.push(floor);
    let top = highestTried(view, chosen);
    while (chosen.length < view.slots && top < view.high) {
      const rung = Math.min(nextRung(view.initialLower, top), view.high);
      const [t] = view.freeFrom(rung, 1, chosen);
      if (t === undefined) break;
      chosen.push(t);
      top = t;
    }
    if (chosen.length < view.slots)
      chosen.push(...view.freeFrom(view.lower, view.slots - chosen.length, chosen));
    return chosen;
  },
};

function lowestOpen(view: HorizonPolicyView): number | undefined {
  for (let t = view.lower; t <= view.high; t++) {
    if (view.stateOf(t) !== 'unknown') return t;
  }
  return undefined;
}

export function highestTried(view: HorizonPolicyView, chosen: readonly number[]): number {
  let top = view.lower;
  for (const record of view.horizons) {
    if (record.state !== 'cancelled') top = Math.max(top, record.t);
  }
  return Math.max(top, ...chosen);
}

/** The smallest rung `anchor` + 2^k (k >= 0) above `top`. */
export function nextRung(anchor: number, top: number): number {
  let step = 1;
  while (anchor + step <= top) step *= 2;
  return anchor + step;
}
