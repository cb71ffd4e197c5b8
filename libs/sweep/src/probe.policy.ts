import { consecutivePolicy } from './consecutive.policy.js';
import { gaveWay, type HorizonChoice, type HorizonPolicy, type HorizonPolicyView } from './horizon-policy.js';

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
 *
 * With the sweep's patience set, the rungs are patient: a rung that runs out of time makes way for
 * the next one up; once the ladder has reached `high`, the highest rung that gave way runs again
 * with twice its time.
 */
export const probePolicy: HorizonPolicy = {
  name: 'probe',
  patient: true,
  choose(view: HorizonPolicyView): HorizonChoice[] {
    if (view.upper !== undefined) return consecutivePolicy.choose(view);
    const { floor, rungs } = probePicks(view);
    const taken = floor === undefined ? [...rungs] : [floor, ...rungs];
    const fill = taken.length < view.slots ? view.freeFrom(view.lower, view.slots - taken.length, taken) : [];
    const probes = rungs.map((t): HorizonChoice => ({ t, patient: true }));
    return [...(floor === undefined ? [] : [floor]), ...probes, ...fill];
  },
};

/**
 * The lowest open horizon (when free) and the ladder's rungs for the other slots; once the ladder
 * has reached `high`, the highest rung that gave way, to run again with more time.
 */
function probePicks(view: HorizonPolicyView): { floor?: number; rungs: number[] } {
  const open = lowestOpen(view);
  const floor = open !== undefined && view.isFree(open) ? open : undefined;
  const chosen = floor === undefined ? [] : [floor];
  const rungs: number[] = [];
  let top = highestTried(view, chosen);
  while (chosen.length < view.slots && top < view.high) {
    const rung = Math.min(nextRung(view.initialLower, top), view.high);
    const [t] = view.freeFrom(rung, 1, chosen);
    if (t === undefined) break;
    chosen.push(t);
    rungs.push(t);
    top = t;
  }
  if (chosen.length < view.slots && top >= view.high) {
    const again = highestGaveWay(view, floor ?? view.lower);
    if (again !== undefined && !chosen.includes(again)) rungs.push(again);
  }
  return floor === undefined ? { rungs } : { floor, rungs };
}

function lowestOpen(view: HorizonPolicyView): number | undefined {
  for (let t = view.lower; t <= view.high; t++) {
    if (view.stateOf(t) !== 'unknown') return t;
  }
  return undefined;
}

/** The highest horizon run (not merely cancelled, though one that gave way counts) or chosen. */
export function highestTried(view: HorizonPolicyView, chosen: readonly number[]): number {
  let top = view.lower;
  for (const record of view.horizons) {
    if (record.state !== 'cancelled' || gaveWay(record)) top = Math.max(top, record.t);
  }
  return Math.max(top, ...chosen);
}

/** The highest free horizon above `above` that gave way, to run again with more time. */
export function highestGaveWay(view: HorizonPolicyView, above: number): number | undefined {
  for (let i = view.horizons.length - 1; i >= 0; i--) {
    const record = view.horizons[i]!;
    if (record.t <= above) break;
    if (gaveWay(record) && view.isFree(record.t)) return record.t;
  }
  return undefined;
}

/** The smallest rung `anchor` + 2^k (k >= 0) above `top`. */
export function nextRung(anchor: number, top: number): number {
  let step = 1;
  while (anchor + step <= top) step *= 2;
  return anchor + step;
}
