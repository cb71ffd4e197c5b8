import { describe, expect, it } from 'vitest';

import { generateSnake } from './snake.generate.js';
import {
  analyseSnake,
  HELD_KARP_MAX_APPLES,
  snakeDefaultMaxHorizon,
  snakeLowerBound,
} from './snake.lower-bound.js';
import { type Cell, type SnakeInstance } from './snake.model.js';
import { shortestByBfs } from './snake.search.testing.js';

describe(snakeLowerBound.name, () => {
  it('never exceeds the true optimum (random 4x4 instances, both orders)', () => {
    for (let seed = 0; seed < 12; seed++) {
      const instance = generateSnake({
        width: 4,
        height: 4,
        apples: 3,
        length: 4,
        seed,
        order: seed % 2 ? 'given' : 'any',
      });
      expect(snakeLowerBound(instance)).toBeLessThanOrEqual(shortestByBfs(instance)!);
    }
  });

  it('is the shortest tour over Manhattan distances for any order', () => {
    // From (0,0): (3,0) then (3,3) then (0,3) is 9 steps; any other order is longer.
    const instance: SnakeInstance = {
      width: 5,
      height: 5,
      length: 1,
      body: [[0, 0]],
      apples: [
        [0, 3],
        [3, 3],
        [3, 0],
      ],
      order: 'any',
    };
    expect(snakeLowerBound(instance)).toBe(9);
    expect(snakeLowerBound({ ...instance, order: 'given' })).toBe(3 + 3 + 3);
    expect(
      snakeLowerBound({
        ...instance,
        apples: [
          [3, 3],
          [0, 3],
          [3, 0],
        ],
        order: 'given',
      }),
    ).toBe(6 + 3 + 6);
  });

  it('counts the detour around the initial body to the first apple', () => {
    // The apple sits in the corner behind the body: two steps away, but the way opens at step 3.
    const instance: SnakeInstance = {
      width: 3,
      height: 3,
      length: 4,
      body: [
        [2, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ],
      apples: [[0, 0]],
      order: 'any',
    };
    expect(snakeLowerBound(instance)).toBe(4);
    expect(shortestByBfs(instance)).toBe(4);
  });

  it(`stays admissible above ${HELD_KARP_MAX_APPLES} apples, where the tour is only bounded`, () => {
    // 24 apples in a row from the head: the straight walk of 24 steps is optimal.
    const apples: Cell[] = Array.from({ length: 24 }, (_, i) => [i + 1, 0]);
    const instance: SnakeInstance = { width: 25, height: 2, length: 1, body: [[0, 0]], apples, order: 'any' };
    expect(snakeLowerBound(instance)).toBe(24);
  });

  it('is the walk length for survive', () => {
    expect(
      snakeLowerBound({
        width: 3,
        height: 3,
        length: 1,
        body: [[0, 0]],
        apples: [],
        order: 'any',
        survive: 8,
      }),
    ).toBe(8);
  });
});

describe(analyseSnake.name, () => {
  const corridor: SnakeInstance = {
    width: 5,
    height: 1,
    length: 3,
    body: [
      [1, 0],
      [2, 0],
      [3, 0],
    ],
    apples: [[4, 0]],
    order: 'any',
  };

  it('proves an instance unsolvable when the body walls the head off from the apples', () => {
    expect(analyseSnake(corridor).unsolvable).toBe(true);
    expect(snakeDefaultMaxHorizon(corridor)).toBeLessThan(snakeLowerBound(corridor));
  });

  it('does not call a solvable instance unsolvable, and caps it above its lower bound', () => {
    const instance = generateSnake({ width: 5, height: 5, apples: 4, seed: 7 });
    expect(analyseSnake(instance).unsolvable).toBe(false);
    expect(snakeDefaultMaxHorizon(instance)).toBe(snakeLowerBound(instance) + 25);
  });
});
