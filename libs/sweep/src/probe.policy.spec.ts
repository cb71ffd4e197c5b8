import { describe, expect, it } from 'vitest';

import { probePolicy } from './probe.policy.js';
import { initSweepState, markStarted, nextHorizons, nextRuns, recordResult } from './sweep-state.js';
import { sweepOf } from './testing/policy-steps.js';

const sweep = (lower: number, max: number, parallelism: number) =>
  sweepOf(probePolicy, lower, max, parallelism);

describe(probePolicy.name, () => {
  it('keeps one slot on the lowest horizon and climbs rungs lower + 1, 2, 4, 8 with the others', () => {
    expect(nextHorizons(sweep(5, 100, 5), probePolicy)).toEqual([5, 6, 7, 9, 13]);
  });

  it('caps the last rung at max and fills the slots left from the bottom', () => {
    expect(nextHorizons(sweep(5, 11, 5), probePolicy)).toEqual([5, 6, 7, 9, 11]);
    expect(nextHorizons(sweep(5, 11, 6), probePolicy)).toEqual([5, 6, 7, 9, 11, 8]);
  });

  it('climbs above the highest horizon tried while the lowest one runs', () => {
    let state = sweep(1, 100, 2);
    for (const t of nextHorizons(state, probePolicy)) state = markStarted(state, t, 0);
    expect(state.horizons.map((h) => h.t)).toEqual([1, 2]);
    state = recordResult(state, 1, 'unsat').state;
    expect(nextHorizons(state, probePolicy)).toEqual([3]);
    state = recordResult(markStarted(state, 3, 0), 2, 'unsat').state;
    expect(nextHorizons(state, probePolicy)).toEqual([5]);
    state = recordResult(markStarted(state, 5, 0), 3, 'unsat').state;
    expect(nextHorizons(state, probePolicy)).toEqual([4]);
    state = recordResult(markStarted(state, 4, 0), 5, 'unsat').state;
    expect(nextHorizons(state, probePolicy)).toEqual([6, 9]);
  });

  it('skips unknown horizons for its lowest slot', () => {
    let state = markStarted(sweep(1, 100, 2), 1, 0);
    state = recordResult(state, 1, 'unknown').state;
    expect(nextHorizons(state, probePolicy)).toEqual([2, 3]);
  });

  it('sweeps from the bottom once a plan bounds the search', () => {
    let state = markStarted(sweep(1, 100, 3), 9, 0);
    state = recordResult(state, 9, 'sat').state;
    expect(nextHorizons(state, probePolicy)).toEqual([1, 2, 3]);
  });

  it('is consecutive with a single slot', () => {
    let state = sweep(3, 100, 1);
    expect(nextHorizons(state, probePolicy)).toEqual([3]);
    state = recordResult(markStarted(state, 3, 0), 3, 'unsat').state;
    expect(nextHorizons(state, probePolicy)).toEqual([4]);
  });

  it('with patience limits its rungs only, and retries the highest that gave way once the ladder is at max', () => {
    let state = initSweepState({ lower: 5, max: 9, parallelism: 2, policy: probePolicy, patienceMs: 1000 });
    expect(nextRuns(state, probePolicy)).toEqual([{ t: 5 }, { t: 6, limitMs: 1000 }]);
    state = markStarted(markStarted(state, 5, 0), 6, 0, 1000);
    state = recordResult(state, 6, 'unknown', { at: 1000 }).state;
    // The rung gave way: the ladder goes on above it (5 + 2), then to max.
    expect(nextRuns(state, probePolicy)).toEqual([{ t: 7, limitMs: 1000 }]);
    state = recordResult(markStarted(state, 7, 0, 1000), 7, 'unknown', { at: 1000 }).state;
    expect(nextRuns(state, probePolicy)).toEqual([{ t: 9, limitMs: 1000 }]);
    state = recordResult(markStarted(state, 9, 0, 1000), 9, 'unknown', { at: 1500 }).state;
    expect(nextRuns(state, probePolicy)).toEqual([{ t: 9, limitMs: 3000 }]);
    // Once a plan is known it is consecutive, without limits.
    state = recordResult(markStarted(state, 9, 0, 3000), 9, 'sat', { at: 10 }).state;
    state = recordResult(state, 5, 'unsat', { at: 10 }).state;
    expect(nextRuns(state, probePolicy)).toEqual([{ t: 6 }, { t: 7 }]);
  });
});
