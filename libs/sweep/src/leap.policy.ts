import type { HorizonChoice, HorizonPolicy, HorizonPolicyView } from './horizon-policy.js';

/** The largest step `leap` takes above `lower`. */
export const LEAP_MAX_GAP = 8;

/**
 * `leap`: for instances whose lower bound is weak, where the sweep would solve many cheap UNSAT
 * horizons one by one. While no plan is known, its first slot goes `gap` above `lower`, the gap
 * growing with how far `lower` has already risen above the initial bound (a quarter of it, at
 * most LEAP_MAX_GAP): an UNSAT there lifts `lower` past every horizon it skipped (the encodings are
 * monotone). A plan caps the leap just below it (`high`), so a plan found far above `lower`, e.g.
 * a game's quick plan before any solver ran, does not turn the climb into a one-by-one sweep; and
 * a leap that lands just below the plan is the UNSAT that proves it optimal. Where the bound is
 * tight (`lower` has not risen by 4) it is `consecutive`. Other slots are filled from `lower`
 * upwards.
 */
export const leapPolicy: HorizonPolicy = {
  name: 'leap',
  choose(view: HorizonPolicyView): HorizonChoice[] {
    const gap = Math.min(LEAP_MAX_GAP, Math.floor((view.lower - view.initialLower) / 4));
    const chosen = view.freeFrom(Math.min(view.lower + gap, view.high), 1);
    if (chosen.length < view.slots)
      chosen.push(...view.freeFrom(view.lower, view.slots - chosen.length, chosen));
    return chosen;
  },
};
