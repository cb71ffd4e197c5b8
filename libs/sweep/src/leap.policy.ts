import type { HorizonChoice, HorizonPolicy, HorizonPolicyView } from './horizon-policy.js';

/** The largest step `leap` takes above `lower`. */
export const LEAP_MAX_GAP = 8;

/**
 * `leap`: for instances whose lower bound is weak, where the sweep would solve many cheap UNSAT
 * horizons one by one. Its first slot goes a growing gap above `lower`, capped just below a plan:
 * an UNSAT there lifts `lower` past every horizon it skipped, the encodings being monotone
 * (docs/cli.md#policies).
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
