import { describe, expect, it } from 'vitest';

import { bracketPolicy } from './bracket.policy.js';
import { initSweepState, markStarted, nextHorizons, nextRuns, recordResult } from './sweep-state.js';
import { answer, start, sweepOf, unsatFrom } from './testing/policy-steps.js';

const sweep = (lower: number, max: number, parallelism: number) =>
  sweepOf(bracketPolicy, lower, max, parallelism);

describe(bracketPolicy.name, () => {
  it('climbs from lower and probes a rung of the ladder above the highest horizon tried', () => {
    let state = sweep(10, 100, 2);
    expect(nextHorizons(state, bracketPolicy)).toEqual([10, 11]);
    state = answer(state, 10, 'unsat');
    state = answer(state, 11, 'unsat');
    // lower 12 (gap 0): the climber takes 12, the ladder 10 + 2 = 12 is taken, so 10 + 4 = 14.
    expect(nextHorizons(state, bracketPolicy)).toEqual([12, 14]);
  });

  it('keeps its ladder slot climbing while the climber leaps', () => {
    let state = sweep(0, 100, 2);
    state = unsatFrom(state, 0, 20);
    // gap min(8, 20 / 4) = 5: the climber at 25; the ladder above 25 is 0 + 32.
    expect(nextHorizons(state, bracketPolicy)).toEqual([25, 32]);
    state = start(start(state, 25), 32);
    expect(nextHorizons(state, bracketPolicy)).toEqual([]);
  });

  it('once a plan is known, descends from just below it while the climber goes on', () => {
    let state = sweep(0, 100, 2);
    state = unsatFrom(state, 0, 20);
    state = start(state, 25);
    state = answer(state, 32, 'sat');
    expect(state.upper).toBe(32);
    expect(nextHorizons(state, bracketPolicy)).toEqual([31]);
    state = answer(state, 31, 'sat');
    expect(nextHorizons(state, bracketPolicy)).toEqual([30]);
    // An UNSAT just below the plan proves it optimal, without the horizons between.
    state = answer(state, 30, 'unsat');
    expect(state.lower).toBe(31);
    expect(state.upper).toBe(31);
    expect(nextHorizons(state, bracketPolicy)).toEqual([]);
  });

  it('keeps the climber below the descending slot as the window closes', () => {
    let state = sweep(0, 100, 2);
    state = unsatFrom(state, 0, 24);
    state = answer(state, 27, 'sat');
    // lower 24, gap 6, but the window is 24..26 and 26 is the descender's.
    expect(nextHorizons(state, bracketPolicy)).toEqual([26, 25]);
    state = answer(state, 26, 'sat');
    expect(nextHorizons(state, bracketPolicy)).toEqual([25, 24]);
    state = answer(state, 25, 'sat');
    expect(nextHorizons(state, bracketPolicy)).toEqual([24]);
  });

  it('with one slot leaps until a plan is known, then only descends; further slots fill from lower', () => {
    let one = sweep(0, 100, 1);
    one = unsatFrom(one, 0, 8);
    expect(nextHorizons(one, bracketPolicy)).toEqual([10]);
    one = answer(one, 10, 'sat');
    expect(nextHorizons(one, bracketPolicy)).toEqual([9]);
    let three = sweep(0, 100, 3);
    three = unsatFrom(three, 0, 8);
    expect(nextHorizons(three, bracketPolicy)).toEqual([10, 16, 8]);
  });

  it('gives a freed slot to the role that freed it: the ladder keeps climbing while the climber runs', () => {
    let state = initSweepState({
      lower: 0,
      max: 100,
      parallelism: 2,
      policy: bracketPolicy,
      patienceMs: 1000,
    });
    state = unsatFrom(state, 0, 20);
    expect(nextRuns(state, bracketPolicy)).toEqual([{ t: 25 }, { t: 32, limitMs: 1000 }]);
    state = markStarted(start(state, 25), 32, 0, 1000);
    state = recordResult(state, 32, 'unknown', { at: 1000 }).state;
    // The climber (25) still runs: the free slot is the ladder's, whose next rung is a quarter above
    // the highest horizon tried (32): 40.
    expect(nextRuns(state, bracketPolicy)).toEqual([{ t: 40, limitMs: 1000 }]);
    state = markStarted(state, 40, 0, 1000);
    state = answer(state, 25, 'unsat');
    // The ladder (40) still runs: the free slot is the climber's, gap min(8, 26 / 4) = 6 above
    // 26, which is 32, the rung that gave way: the climber runs it without a limit.
    expect(nextRuns(state, bracketPolicy)).toEqual([{ t: 32 }]);
  });

  it('with patience, descends past a horizon that gave way below a plan', () => {
    let state = initSweepState({
      lower: 0,
      max: 100,
      parallelism: 2,
      policy: bracketPolicy,
      patienceMs: 1000,
    });
    state = unsatFrom(state, 0, 20);
    state = start(state, 25);
    state = answer(state, 40, 'sat');
    expect(nextRuns(state, bracketPolicy)).toEqual([{ t: 39, limitMs: 1000 }]);
    state = recordResult(markStarted(state, 39, 0, 1000), 39, 'unknown', { at: 1000 }).state;
    expect(nextRuns(state, bracketPolicy)).toEqual([{ t: 38, limitMs: 1000 }]);
  });
});
