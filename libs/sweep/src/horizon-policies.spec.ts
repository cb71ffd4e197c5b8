import { describe, expect, it } from 'vitest';

import { HORIZON_POLICIES, horizonPolicy, horizonPolicyNames } from './horizon-policies.js';
import type { HorizonPolicy } from './horizon-policy.js';
import { UnknownPolicyError } from './sweep.error.js';
import { initSweepState, nextHorizons, parseSweepState } from './sweep-state.js';

describe(horizonPolicy.name, () => {
  it('finds each policy a user may name, and refuses another name, listing them', () => {
    expect(horizonPolicyNames()).toEqual(['consecutive', 'probe', 'leap', 'bracket']);
    for (const policy of HORIZON_POLICIES) expect(horizonPolicy(policy.name)).toBe(policy);
    expect(() => horizonPolicy('bisect')).toThrow(UnknownPolicyError);
    expect(() => horizonPolicy('bisect')).toThrow(/consecutive, probe, leap, bracket/);
  });

  it('is a fixed list', () => {
    expect(Object.isFrozen(HORIZON_POLICIES)).toBe(true);
  });
});

describe('a policy of its own', () => {
  const topDown: HorizonPolicy = {
    name: 'top-down',
    choose: (view) => {
      const picked: number[] = [];
      for (let t = view.high; t >= view.lower && picked.length < view.slots; t--)
        if (view.isFree(t)) picked.push(t);
      return picked;
    },
  };

  it('runs a sweep when passed, and its state survives storage, with nothing registered', () => {
    const state = initSweepState({ lower: 1, max: 9, parallelism: 2, policy: topDown });
    expect(nextHorizons(state, topDown)).toEqual([9, 8]);
    const restored = parseSweepState(JSON.parse(JSON.stringify(state)));
    expect(restored.policy).toBe('top-down');
    expect(nextHorizons(restored, topDown)).toEqual([9, 8]);
    expect(() => horizonPolicy('top-down')).toThrow(UnknownPolicyError);
  });
});
