import { xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';

import { InputError } from '../input-error.js';
import { closedTour, cutWalls, generateSnake } from './snake.generate.js';
import { SnakeGrid } from './snake.model.js';
import { parseSnakeInstance } from './snake.parse.js';
import { shortestByBfs } from './snake.search.testing.js';

describe(generateSnake.name, () => {
  it('gives the same instance for the same seed and another one for another seed', () => {
    const options = { width: 10, height: 10, apples: 9, seed: 42 };
    expect(generateSnake(options)).toEqual(generateSnake(options));
    expect(generateSnake(options)).not.toEqual(generateSnake({ ...options, seed: 43 }));
  });

  it('produces valid input of the asked size: distinct apples off the body, a body of the asked length', () => {
    for (const [width, height] of [
      [10, 10],
      [7, 5],
      [5, 5],
      [2, 9],
    ]) {
      const instance = generateSnake({
        width: width!,
        height: height!,
        apples: 6,
        seed: width! * height!,
        length: 4,
        order: 'given',
      });
      expect(parseSnakeInstance(JSON.parse(JSON.stringify(instance)))).toEqual(instance);
      expect(instance.apples).toHaveLength(6);
      expect(instance.body).toHaveLength(4);
      expect(instance.order).toBe('given');
    }
  });

  it('makes instances that have a plan (found by a search over simulator states)', () => {
    for (let seed = 0; seed < 5; seed++) {
      const instance = generateSnake({ width: 3, height: 3, apples: 4, seed, length: 3 });
      expect(shortestByBfs(instance)).toBeDefined();
    }
  });

  describe('with walls', () => {
    const key = ([x, y]: [number, number]): string => `${x},${y}`;

    it.each([
      { width: 10, height: 10, apples: 9, seed: 42, walls: 30 },
      { width: 7, height: 5, apples: 4, seed: 3, walls: 10, order: 'given' as const, length: 4 },
      { width: 5, height: 5, apples: 3, seed: 7, walls: 8, spawn: 4, tail: 'strict' as const },
      { width: 6, height: 4, apples: 2, seed: 9, walls: 12, start: 'any' as const },
      { width: 2, height: 2, apples: 0, seed: 1, walls: 2, length: 1 },
    ])('puts %o off the tour: the count is right, none on the body, apples or spawn', (options) => {
      const instance = generateSnake(options);
      const walls = instance.walls!;
      expect(walls).toHaveLength(options.walls);
      const wallKeys = new Set(walls.map(key));
      expect(wallKeys.size).toBe(options.walls);
      for (const c of [...instance.body, ...instance.apples, ...(instance.spawn ?? [])])
        expect(wallKeys.has(key(c))).toBe(false);
      // It parses (which refuses walls on the body, apples or spawn) and stays the same.
      expect(parseSnakeInstance(JSON.parse(JSON.stringify(instance)))).toEqual(instance);
      expect(generateSnake(options)).toEqual(instance);
    });

    it('makes instances that have a plan (found by a search over simulator states)', () => {
      for (let seed = 0; seed < 5; seed++) {
        const instance = generateSnake({ width: 4, height: 3, apples: 3, seed, length: 2, walls: 4 });
        expect(instance.walls).toHaveLength(4);
        expect(shortestByBfs(instance)).toBeDefined();
      }
    });

    it('draws other walls for another seed and nothing changes without walls', () => {
      const options = { width: 10, height: 10, apples: 9, seed: 42 };
      expect(generateSnake({ ...options, walls: 20 }).walls).not.toEqual(
        generateSnake({ ...options, seed: 43, walls: 20 }).walls,
      );
      expect(generateSnake({ ...options, walls: 0 })).toEqual(generateSnake(options));
      expect(generateSnake(options).walls).toBeUndefined();
    });
  });

  it.each([
    [{ width: 4, height: 4, apples: 2, seed: 1, walls: 12 }, 'walls'],
    [{ width: 4, height: 4, apples: 2, seed: 1, walls: 3 }, 'walls'],
    [{ width: 4, height: 4, apples: 2, seed: 1, walls: -2 }, 'walls'],
    [{ width: 10, height: 10, apples: 0, seed: 1, walls: 96, length: 1 }, 'walls'],
    [{ width: 1, height: 5, apples: 1, seed: 1 }, 'width'],
    [{ width: 4, height: 4, apples: 14, seed: 1 }, 'apples'],
    [{ width: 4, height: 4, apples: 1, seed: 1, length: 17 }, 'length'],
    [{ width: 4, height: 4, apples: 1, seed: 1.5 }, 'seed'],
  ])('rejects impossible options %o naming the option', (options, field) => {
    expect(() => generateSnake(options)).toThrow(InputError);
    expect(() => generateSnake(options)).toThrow(expect.objectContaining({ field }) as Error);
  });
});

describe(cutWalls.name, () => {
  it.each([
    [4, 4, 14],
    [10, 10, 40],
    [7, 5, 12],
  ])(
    'shortens the tour of the %ix%i grid by %i cells into a closed tour off the walls',
    (width, height, count) => {
      const grid = new SnakeGrid(width, height);
      const full = closedTour(width, height);
      const { tour, walls } = cutWalls(grid, full, count, xoroshiro128plus(7));
      expect(walls).toHaveLength(count);
      expect(tour).toHaveLength(full.length - count);
      expect(new Set([...tour, ...walls])).toEqual(new Set(full));
      expect(tour.filter((c) => walls.includes(c))).toEqual([]);
      tour.forEach((c, i) => expect(grid.areNeighbours(c, tour[(i + 1) % tour.length]!)).toBe(true));
    },
  );
});

describe(closedTour.name, () => {
  it.each([
    [2, 2],
    [4, 3],
    [3, 4],
    [6, 6],
    [3, 3],
    [7, 5],
  ])(
    'is a closed tour of the %ix%i grid through every cell (but one corner when both sides are odd)',
    (width, height) => {
      const grid = new SnakeGrid(width, height);
      const tour = closedTour(width, height);
      const bothOdd = width % 2 === 1 && height % 2 === 1;
      expect(tour).toHaveLength(bothOdd ? width * height - 1 : width * height);
      expect(new Set(tour).size).toBe(tour.length);
      tour.forEach((c, i) => expect(grid.areNeighbours(c, tour[(i + 1) % tour.length]!)).toBe(true));
    },
  );
});
