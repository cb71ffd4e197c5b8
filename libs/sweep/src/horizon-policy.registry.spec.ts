import { describe, expect, it } from 'vitest';

import type { HorizonPolicy } from './horizon-policy.js';
import { horizonPolicy, horizonPolicyNames, registerHorizonPolicy } from './horizon-policy.registry.js';
import { UnknownPolicyError } from './sweep.error.js';
import { initSweepState, nextHorizons } from './sweep-state.js';

describe(registerHorizonPolicy.name, () => {
  const topDown: HorizonPolicy = {
    name: 'top-down',
    choose: (view) => {
      const picked: number[] = [];
      for (let t = view.high; t >= view.lower && picked.length < view.slots; t--)
        if (view.isFree(t)) picked.push(t);
      return picked;
    },
  };

  it('makes a policy usable by name in sweep states', () => {
    expect(() => horizonPolicy('top-down')).toThrow(UnknownPolicyError);
    registerHorizonPolicy(topDown);
    expect(horizonPolicyNames()).toEqual(['consecutive', 'probe', 'leap', 'bracket', 'top-down']);
    expect(nextHorizons(initSweepState({ lower: 1, max: 9, parallelism: 2, policy: 'top-down' }))).toEqual([
      9, 8,
    ]);
  });

  it('refuses a second policy under a taken name', () => {
    expect(() => registerHorizonPolicy({ ...topDown })).toThrow(/already registered/);
    expect(() => registerHorizonPolicy({ name: 'probe', choose: () => [] })).toThrow(/already registered/);
  });
});
