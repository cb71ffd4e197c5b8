import { describe, expect, it } from 'vitest';

import { type MoveSplitSearch, splitByMoves } from './split-by-moves.js';

/** A walk on the integers from 0 by steps of 1 or 3 to reach `goal`; odd numbers start no instance. */
const walk = (goal: number): MoveSplitSearch<number, number, { at: number }> => ({
  start: 0,
  successors: (n) => [1, 3].map((step) => [step, n + step] as const),
  key: String,
  reached: (n) => n === goal,
  instanceOf: (n) => (n % 2 === 0 ? { at: n } : undefined),
});

describe(splitByMoves.name, () => {
  it('takes each state once, at the fewest moves, and a state no instance starts from a move deeper', () => {
    const split = splitByMoves(walk(100), 2, 10)!;
    // Two moves reach 2, 4 and 6; 1 and 3, one move in, are only expanded.
    expect(split.cubes.map((c) => [c.instance.at, c.moves.join('+')])).toEqual([
      [2, '1+1'],
      [4, '1+3'],
      [6, '3+3'],
    ]);
    // Depth 1: 1 and 3 are odd, so their successors are taken at depth 2 instead.
    expect(splitByMoves(walk(100), 1, 10)!.cubes.map((c) => c.moves.length)).toEqual([2, 2, 2]);
  });

  it('ends with the plan of a state that reaches the goal before the depth', () => {
    expect(splitByMoves(walk(4), 3, 5)).toEqual({ cubes: [], plan: [1, 3] });
    expect(splitByMoves(walk(0), 1, 1)).toEqual({ cubes: [], plan: [] });
  });

  it('gives up past its state budget, and refuses a depth outside 1..horizon', () => {
    expect(splitByMoves(walk(1000), 6, 10, 5)).toBeUndefined();
    expect(() => splitByMoves(walk(10), 0, 5)).toThrow(RangeError);
    expect(() => splitByMoves(walk(10), 6, 5)).toThrow(/depth must be an integer from 1 to the horizon 5/);
  });
});
