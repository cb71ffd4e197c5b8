import { describe, expect, it } from 'vitest';

import type { Cell, SnakeInstance } from './snake.model.js';
import { verifySnake } from './snake.verify.js';

const instance: SnakeInstance = {
  width: 4,
  height: 3,
  length: 3,
  body: [
    [1, 1],
    [1, 0],
    [0, 0],
  ],
  apples: [
    [3, 1],
    [2, 2],
  ],
  order: 'any',
};
const plan: Cell[] = [
  [1, 1],
  [2, 1],
  [3, 1],
  [3, 2],
  [2, 2],
];

describe(verifySnake.name, () => {
  it('accepts a legal plan that ends as the last apple is eaten, with its step count as cost', () => {
    expect(verifySnake(instance, { path: plan }, 4)).toEqual({ ok: true, cost: 4 });
    expect(verifySnake(instance, { path: plan }, 9)).toEqual({ ok: true, cost: 4 });
  });

  it.each([
    ['an empty path', [], 4, 'the path is empty'],
    ['a path that starts elsewhere', [[2, 1], ...plan.slice(1)], 4, 'path[0] is not the head'],
    ['a cell off the grid', [...plan.slice(0, 2), [4, 1]], 4, 'path[2] is not a cell of the 4x3 grid'],
    ['a plan longer than the horizon', plan, 3, '4 steps exceed the horizon 3'],
    [
      'a jump',
      [
        [1, 1],
        [3, 1],
        [3, 2],
        [2, 2],
      ],
      4,
      'step 1: not a move to a 4-neighbour',
    ],
    [
      'a bite',
      [
        [1, 1],
        [1, 0],
      ],
      4,
      'step 1: the head bites the body',
    ],
    ['an apple left', plan.slice(0, 4), 4, '1 apple(s) left uneaten'],
    [
      'steps after the last apple',
      [...plan, [1, 2]],
      5,
      'the path goes on after the goal was reached at step 4',
    ],
  ] as Array<[string, Cell[], number, string]>)('rejects %s', (_, path, horizon, reason) => {
    expect(verifySnake(instance, { path }, horizon)).toEqual({ ok: false, reason });
  });

  it('asks a survive walk for exactly its number of steps', () => {
    const walk: SnakeInstance = { ...instance, apples: [], survive: 2 };
    expect(verifySnake(walk, { path: plan.slice(0, 3) }, 2)).toEqual({ ok: true, cost: 2 });
    expect(verifySnake(walk, { path: plan.slice(0, 2) }, 2)).toEqual({
      ok: false,
      reason: 'the walk has 1 steps, not 2',
    });
  });
});
