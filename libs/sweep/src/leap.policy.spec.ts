import { describe, expect, it } from 'vitest';

import { leapPolicy } from './leap.policy.js';
import { initSweepState, markStarted, nextHorizons, recordResult, type SweepState } from './sweep-state.js';

function sweep(lower: number, max: number, parallelism: number): SweepState {
  return initSweepState({ lower, max, parallelism, policy: leapPolicy.name });
}

function answer(state: SweepState, t: number, result: 'sat' | 'unsat' | 'unknown'): SweepState {
  return recordResult(markStarted(state, t, 0), t, result).state;
}

describe(leapPolicy.name, () => {
  it('is consecutive while the lower bound holds', () => {
    let state = sweep(10, 100, 1);
    for (const t of [10, 11, 12, 13]) {
      expect(nextHorizons(state)).toEqual([t]);
      state = answer(state, t, 'unsat');
    }
  });

  it('leaps further above lower the further lower has risen, skipping the horizons an UNSAT proves', () => {
    let state = sweep(0, 100, 1);
    for (let t = 0; t < 8; t++) state = answer(state, t, 'unsat');
    expect(nextHorizons(state)).toEqual([10]);
    state = answer(state, 10, 'unsat');
    expect(state.lower).toBe(11);
    expect(nextHorizons(state)).toEqual([13]);
  });

  it('caps the leap at the largest gap and at max', () => {
    let state = sweep(0, 100, 1);
    for (let t = 0; t < 60; t++) state = answer(state, t, 'unsat');
    expect(nextHorizons(state)).toEqual([68]);
    let capped = sweep(0, 45, 1);
    for (let t = 0; t < 40; t++) capped = answer(capped, t, 'unsat');
    expect(nextHorizons(capped)).toEqual([45]);
  });

  it('sweeps up from lower once a leap finds a plan', () => {
    let state = sweep(0, 100, 1);
    for (let t = 0; t < 12; t++) state = answer(state, t, 'unsat');
    expect(nextHorizons(state)).toEqual([15]);
    state = answer(state, 15, 'sat');
    expect(nextHorizons(state)).toEqual([12]);
  });

  it('fills further slots from lower upwards', () => {
    let state = sweep(0, 100, 3);
    for (let t = 0; t < 8; t++) state = answer(state, t, 'unsat');
    expect(nextHorizons(state)).toEqual([10, 8, 9]);
  });
});
