import type { HorizonPolicy, HorizonPolicyView } from './horizon-policy.js';

/**
 * `consecutive`: the lowest free horizons from `lower` upwards (lower, lower + 1, ...), as in
 * Rintanen's algorithm A with a window of `parallelism` horizons. Every UNSAT result it gets raises
 * `lower`, and the first SAT is the optimum once everything below it is UNSAT; it never spends a
 * slot above the optimum for long, but it finds no upper bound before it reaches the optimum.
 */
export const consecutivePolicy: HorizonPolicy = {
  name: 'consecutive',
  choose(view: HorizonPolicyView): number[] {
    return view.freeFrom(view.lower, view.slots);
  },
};
