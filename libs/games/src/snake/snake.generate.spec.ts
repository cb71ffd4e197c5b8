import { describe, expect, it } from 'vitest';

import { InputError } from '../input-error.js';
import { closedTour, generateSnake } from './snake.generate.js';
import { SnakeGrid, SnakeSimulator } from './snake.model.js';
import { parseSnakeInstance } from './snake.parse.js';

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
      const start = new SnakeSimulator(instance);
      const seen = new Set([start.key()]);
      const queue = [start];
      let solved = false;
      while (queue.length > 0 && !solved) {
        const state = queue.shift()!;
        for (const move of state.legalMoves()) {
          const child = state.clone();
          child.move(move);
          solved ||= child.isDone();
          if (!seen.has(child.key())) {
            seen.add(child.key());
            queue.push(child);
          }
        }
      }
      expect(solved).toBe(true);
    }
  });

  it.each([
    [{ width: 1, height: 5, apples: 1, seed: 1 }, 'width'],
    [{ width: 4, height: 4, apples: 14, seed: 1 }, 'apples'],
    [{ width: 4, height: 4, apples: 1, seed: 1, length: 17 }, 'length'],
    [{ width: 4, height: 4, apples: 1, seed: 1.5 }, 'seed'],
  ])('rejects impossible options %o naming the option', (options, field) => {
    expect(() => generateSnake(options)).toThrow(InputError);
    expect(() => generateSnake(options)).toThrow(expect.objectContaining({ field }) as Error);
  });
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
