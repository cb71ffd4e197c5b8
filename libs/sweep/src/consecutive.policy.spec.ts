import { describe, expect, it } from 'vitest';

import { consecutivePolicy } from './consecutive.policy.js';
import { initSweepState, markStarted, nextHorizons, recordResult } from './sweep-state.js';

describe(consecutivePolicy.name, () => {
  it('takes the lowest free horizons, skipping the ones running or answered unknown', () => {
    let state = initSweepState({ lower: 2, max: 50, parallelism: 4, policy: consecutivePolicy });
    expect(nextHorizons(state, consecutivePolicy)).toEqual([2, 3, 4, 5]);
    state = [2, 3, 4, 5].reduce((s, t) => markStarted(s, t, 0), state);
    state = recordResult(state, 3, 'unknown').state;
    state = recordResult(state, 5, 'unknown').state;
    expect(nextHorizons(state, consecutivePolicy)).toEqual([6, 7]);
  });
});
