import { consecutivePolicy } from './consecutive.policy.js';
import { gaveWay, type HorizonChoice, type HorizonPolicy, type HorizonPolicyView } from './horizon-policy.js';

/**
 * `probe`: looks for a plan early, for instances whose optimum lies far above the lower bound, where
 * the UNSAT proofs just below the optimum are the slow ones: one slot keeps `lower` rising, the
 * others climb a ladder of rungs anchored at the initial lower bound (docs/cli.md#policies).
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
