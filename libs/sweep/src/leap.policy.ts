import { consecutivePolicy } from './consecutive.policy.js';
import type { HorizonChoice, HorizonPolicy, HorizonPolicyView } from './horizon-policy.js';

/** The largest step `leap` takes above `lower`. */
export const LEAP_MAX_GAP = 8;

/**
 * `leap`: for instances whose lower bound is weak, where the sweep would solve many cheap UNSAT
 * horizons one by one. While no plan is known, its first slot goes `gap` above `lower`, the gap
 * growing with how far `lower` has already risen above the initial bound (a quarter of it, at
 * most LEAP_MAX_GAP): an UNSAT there lifts `lower` past every horizon it skipped (the encodings are
 * monotone), a SAT gives a plan, after which it is `consecutive` from `lower` up to that plan.
 * Where the bound is tight (`lower` has not risen by 4) it is `consecutive`. Other slots are
 * filled from `lower` upwards.
 */
export const leapPolicy: HorizonPolicy = {
  name: 'leap',
  choose(view: HorizonPolicyView): HorizonChoice[] {
    if (view.upper !== undefined) return consecutivePolicy.choose(view);
    const gap = Math.min(LEAP_MAX_GAP, Math.floor((view.lower - view.initialLower) / 4));
    const chosen = view.freeFrom(Math.min(view.lower + gap, view.high), 1);
    if (chosen.length < view.slots)
      chosen.push(...view.freeFrom(view.lower, view.slots - chosen.length, chosen));
    return chosen;
  },
};
