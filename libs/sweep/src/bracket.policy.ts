import type { HorizonPolicy, HorizonPolicyView } from './horizon-policy.js';
import { LEAP_MAX_GAP } from './leap.policy.js';
import { highestTried, nextRung } from './probe.policy.js';

/**
 * `bracket`: closes in on the optimum from both sides, for instances where both the UNSAT proof
 * just below the optimum and the first plan are expensive (long planning horizons).
 *
 * Its first slot climbs as `leap` does: `gap` above `lower`, the gap a quarter of how far `lower`
 * has risen above the initial bound (at most LEAP_MAX_GAP), so an UNSAT lifts `lower` past every
 * horizon it skipped. While no plan is known, its second slot climbs `probe`'s ladder of rungs
 * `initialLower` + 1, 2, 4, 8, ... above the highest horizon tried, to find a plan early. Once a
 * plan bounds the search, the second slot descends from just below it (`upper` - 1): a SAT there
 * is a shorter plan, and an UNSAT there proves the plan optimal without the horizons between.
 * Further slots are filled from `lower` upwards. With one slot it is `leap` until a plan is known,
 * then it only descends.
 */
export const bracketPolicy: HorizonPolicy = {
  name: 'bracket',
  choose(view: HorizonPolicyView): number[] {
    const chosen: number[] = [];
    // Below a plan the descending slot comes first: its UNSAT ends the sweep.
    if (view.upper !== undefined && view.isFree(view.high)) chosen.push(view.high);
    const gap = Math.min(LEAP_MAX_GAP, Math.floor((view.lower - view.initialLower) / 4));
    const ceiling = view.upper === undefined ? view.high : Math.max(view.lower, view.high - 1);
    if (chosen.length < view.slots)
      chosen.push(...view.freeFrom(Math.min(view.lower + gap, ceiling), 1, chosen));
    if (chosen.length < view.slots && view.upper === undefined) {
      const top = highestTried(view, chosen);
      if (top < view.high) {
        chosen.push(...view.freeFrom(Math.min(nextRung(view.initialLower, top), view.high), 1, chosen));
      }
    }
    if (chosen.length < view.slots)
      chosen.push(...view.freeFrom(view.lower, view.slots - chosen.length, chosen));
    return chosen;
  },
};
