import { describe, expect, it } from 'vitest';

import { bracketPolicy } from './bracket.policy.js';
import { nextHorizons } from './sweep-state.js';
import { answer, start, sweepOf, unsatFrom } from './testing/policy-steps.js';

const sweep = (lower: number, max: number, parallelism: number) =>
  sweepOf(bracketPolicy.name, lower, max, parallelism);

describe(bracketPolicy.name, () => {
  it('climbs from lower and probes a rung of the ladder above the highest horizon tried', () => {
    let state = sweep(10, 100, 2);
    expect(nextHorizons(state)).toEqual([10, 11]);
    state = answer(state, 10, 'unsat');
    state = answer(state, 11, 'unsat');
    // lower 12 (gap 0): the climber takes 12, the ladder 10 + 2 = 12 is taken, so 10 + 4 = 14.
    expect(nextHorizons(state)).toEqual([12, 14]);
  });

  it('keeps its ladder slot climbing while the climber leaps', () => {
    let state = sweep(0, 100, 2);
    state = unsatFrom(state, 0, 20);
    // gap min(8, 20 / 4) = 5: the climber at 25; the ladder above 25 is 0 + 32.
    expect(nextHorizons(state)).toEqual([25, 32]);
    state = start(start(state, 25), 32);
    expect(nextHorizons(state)).toEqual([]);
  });

  it('once a plan is known, descends from just below it while the climber goes on', () => {
    let state = sweep(0, 100, 2);
    state = unsatFrom(state, 0, 20);
    state = start(state, 25);
    state = answer(state, 32, 'sat');
    expect(state.upper).toBe(32);
    expect(nextHorizons(state)).toEqual([31]);
    state = answer(state, 31, 'sat');
    expect(nextHorizons(state)).toEqual([30]);
    // An UNSAT just below the plan proves it optimal, without the horizons between.
    state = answer(state, 30, 'unsat');
    expect(state.lower).toBe(31);
    expect(state.upper).toBe(31);
    expect(nextHorizons(state)).toEqual([]);
  });

  it('keeps the climber below the descending slot as the window closes', () => {
    let state = sweep(0, 100, 2);
    state = unsatFrom(state, 0, 24);
    state = answer(state, 27, 'sat');
    // lower 24, gap 6, but the window is 24..26 and 26 is the descender's.
    expect(nextHorizons(state)).toEqual([26, 25]);
    state = answer(state, 26, 'sat');
    expect(nextHorizons(state)).toEqual([25, 24]);
    state = answer(state, 25, 'sat');
    expect(nextHorizons(state)).toEqual([24]);
  });

  it('with one slot leaps until a plan is known, then only descends; further slots fill from lower', () => {
    let one = sweep(0, 100, 1);
    one = unsatFrom(one, 0, 8);
    expect(nextHorizons(one)).toEqual([10]);
    one = answer(one, 10, 'sat');
    expect(nextHorizons(one)).toEqual([9]);
    let three = sweep(0, 100, 3);
    three = unsatFrom(three, 0, 8);
    expect(nextHorizons(three)).toEqual([10, 16, 8]);
  });
});
