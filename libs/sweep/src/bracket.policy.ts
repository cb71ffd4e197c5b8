import {
  choiceHorizon,
  gaveWay,
  type HorizonChoice,
  type HorizonPolicy,
  type HorizonPolicyView,
} from './horizon-policy.js';
import { LEAP_MAX_GAP } from './leap.policy.js';
import { highestGaveWay, highestTried, nextRung } from './probe.policy.js';

/**
 * `bracket`: closes in on the optimum from both sides, for instances where both the UNSAT proof just
 * below the optimum and the first plan are expensive. The first slot climbs as `leap` does; the
 * second climbs `probe`'s ladder until a plan is known, then descends from just below it, where
 * one UNSAT proves the plan optimal (docs/cli.md#policies).
 */
export const bracketPolicy: HorizonPolicy = {
  name: 'bracket',
  patient: true,
  choose(view: HorizonPolicyView): HorizonChoice[] {
    const { second, climber } = picks(view);
    const probe: HorizonChoice[] = second === undefined ? [] : [{ t: second, patient: true }];
    const chosen: HorizonChoice[] = [];
    // Below a plan the descending slot comes first: its UNSAT ends the sweep.
    if (view.upper !== undefined) chosen.push(...probe);
    if (climber !== undefined && chosen.length < view.slots) chosen.push(climber);
    if (view.upper === undefined && chosen.length < view.slots) chosen.push(...probe);
    if (chosen.length < view.slots) {
      const taken = chosen.map(choiceHorizon);
      chosen.push(...view.freeFrom(view.lower, view.slots - chosen.length, taken));
    }
    return chosen;
  },
};

/**
 * The climber's horizon and the second slot's (a rung of the ladder, or the descent below a plan).
 * A slot whose horizon is still in flight picks nothing: the climber's is the one at or below its
 * target `lower` + `gap`, the ladder's the one above it.
 */
function picks(view: HorizonPolicyView): { second?: number; climber?: number } {
  const gap = Math.min(LEAP_MAX_GAP, Math.floor((view.lower - view.initialLower) / 4));
  const ceiling = view.upper === undefined ? view.high : Math.max(view.lower, view.high - 1);
  const target = Math.min(view.lower + gap, ceiling);
  const inFlight = view.horizons.filter((h) => h.state === 'queued' || h.state === 'running').map((h) => h.t);
  const climbing = inFlight.some((t) => t <= target);
  if (view.upper !== undefined) {
    const second = descent(view);
    const [climber] = climbing ? [] : view.freeFrom(target, 1, second === undefined ? [] : [second]);
    return { second, climber };
  }
  const [climber] = climbing ? [] : view.freeFrom(target, 1);
  if (inFlight.some((t) => t > target)) return { climber };
  const taken = climber === undefined ? [] : [climber];
  const top = highestTried(view, taken);
  let second: number | undefined;
  if (top < view.high) {
    const rung = view.patienceMs === undefined ? nextRung(view.initialLower, top) : denseRung(top);
    [second] = view.freeFrom(Math.min(rung, view.high), 1, taken);
  } else second = highestGaveWay(view, climber ?? target);
  return { second, climber };
}

/** With patience, each rung this many times the highest horizon tried. */
const DENSE_RUNG_RATIO = 1.25;

/**
 * The next rung of the ladder with patience: a quarter above the highest horizon tried. A rung that
 * hangs costs only the patience, so the ladder can afford small steps instead of doubling.
 */
function denseRung(top: number): number {
  return Math.max(top + 1, Math.ceil(top * DENSE_RUNG_RATIO));
}

/**
 * The descent's next horizon below a plan: the highest horizon in the window that has not given
 * way, if it is free (none while it runs or is answered).
 */
function descent(view: HorizonPolicyView): number | undefined {
  for (let t = view.high; t >= view.lower; t--) {
    if (gaveWay(view.horizons.find((h) => h.t === t))) continue;
    return view.isFree(t) ? t : undefined;
  }
  return undefined;
}
