import { describe, expect, it } from 'vitest';

import { leapPolicy } from './leap.policy.js';
import { nextHorizons } from './sweep-state.js';
import { answer, sweepOf, unsatFrom } from './testing/policy-steps.js';

const sweep = (lower: number, max: number, parallelism: number) =>
  sweepOf(leapPolicy, lower, max, parallelism);

describe(leapPolicy.name, () => {
  it('is consecutive while the lower bound holds', () => {
    let state = sweep(10, 100, 1);
    for (const t of [10, 11, 12, 13]) {
      expect(nextHorizons(state, leapPolicy)).toEqual([t]);
      state = answer(state, t, 'unsat');
    }
  });

  it('leaps further above lower the further lower has risen, skipping the horizons an UNSAT proves', () => {
    let state = sweep(0, 100, 1);
    state = unsatFrom(state, 0, 8);
    expect(nextHorizons(state, leapPolicy)).toEqual([10]);
    state = answer(state, 10, 'unsat');
    expect(state.lower).toBe(11);
    expect(nextHorizons(state, leapPolicy)).toEqual([13]);
  });

  it('caps the leap at the largest gap and at max', () => {
    let state = sweep(0, 100, 1);
    state = unsatFrom(state, 0, 60);
    expect(nextHorizons(state, leapPolicy)).toEqual([68]);
    let capped = sweep(0, 45, 1);
    capped = unsatFrom(capped, 0, 40);
    expect(nextHorizons(capped, leapPolicy)).toEqual([45]);
  });

  it('keeps leaping below a plan, capped just below it', () => {
    let state = sweep(0, 100, 1);
    state = unsatFrom(state, 0, 12);
    expect(nextHorizons(state, leapPolicy)).toEqual([15]);
    state = answer(state, 15, 'sat');
    // The leap of 3 would reach 15: capped at 14, whose UNSAT would prove the plan optimal.
    expect(nextHorizons(state, leapPolicy)).toEqual([14]);
    state = answer(state, 14, 'sat');
    expect(nextHorizons(state, leapPolicy)).toEqual([13]);
  });

  it('leaps below a plan known far above lower (a quick plan) instead of sweeping up one by one', () => {
    let state = sweep(0, 100, 2);
    state = answer(state, 60, 'sat');
    state = unsatFrom(state, 0, 20);
    // Two slots: the leap (a quarter of the 20 risen, 5 above lower) and the lowest free horizon.
    expect(nextHorizons(state, leapPolicy)).toEqual([25, 20]);
  });

  it('fills further slots from lower upwards', () => {
    let state = sweep(0, 100, 3);
    state = unsatFrom(state, 0, 8);
    expect(nextHorizons(state, leapPolicy)).toEqual([10, 8, 9]);
  });
});
