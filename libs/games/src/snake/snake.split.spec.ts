import { describe, expect, it } from 'vitest';

import { generateSnake } from './snake.generate.js';
import { type SnakeInstance, SnakeSimulator, type SnakeSolution } from './snake.model.js';
import { joinSnakePlan, splitSnake } from './snake.split.js';
import { verifySnake } from './snake.verify.js';

/** A shortest plan by breadth-first search over simulator states, or undefined. */
function shortestPlan(instance: SnakeInstance): SnakeSolution | undefined {
  const start = new SnakeSimulator(instance);
  if (start.isDone()) return { path: [instance.body[0]!] };
  const seen = new Set([start.key()]);
  let frontier = [{ sim: start, cells: [start.head] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { sim, cells } of frontier) {
      for (const move of sim.legalMoves()) {
        const child = sim.clone();
        child.move(move);
        const path = [...cells, move];
        if (child.isDone()) return { path: path.map((c) => child.grid.cell(c)) };
        if (seen.has(child.key())) continue;
        seen.add(child.key());
        next.push({ sim: child, cells: path });
      }
    }
    frontier = next;
  }
  return undefined;
}

const lengthOf = (plan: SnakeSolution | undefined): number =>
  plan === undefined ? Number.POSITIVE_INFINITY : plan.path.length - 1;

describe(splitSnake.name, () => {
  it('keeps the fewest steps of random hunts through its cubes, and none below them (both orders)', () => {
    for (let seed = 0; seed < 10; seed++) {
      const instance = generateSnake({
        width: 4,
        height: 4,
        apples: 3,
        length: 4,
        seed,
        order: seed % 2 ? 'given' : 'any',
      });
      const best = lengthOf(shortestPlan(instance));
      for (const depth of [1, 2, 3]) {
        const split = splitSnake(instance, depth, best)!;
        if (split.plan !== undefined) {
          expect(verifySnake(instance, split.plan, best)).toEqual({ ok: true, cost: best });
          continue;
        }
        const keys = split.cubes.map((c) => new SnakeSimulator(c.instance).key());
        expect(new Set(keys).size).toBe(keys.length);
        const through = split.cubes.map((c) => c.depth + lengthOf(shortestPlan(c.instance)));
        expect(Math.min(...through), `seed ${seed} depth ${depth}`).toBe(best);
        const cube = split.cubes[through.indexOf(best)]!;
        const joined = joinSnakePlan(instance, cube.prefix, shortestPlan(cube.instance)!);
        expect(verifySnake(instance, joined, best)).toEqual({ ok: true, cost: best });
        const below = splitSnake(instance, depth, best - 1)!;
        expect(below.plan).toBeUndefined();
        for (const c of below.cubes)
          expect(c.depth + lengthOf(shortestPlan(c.instance))).toBeGreaterThan(best - 1);
      }
    }
  });

  it('takes a state a move deeper when the apple that comes next lies under the body', () => {
    // Walking right eats (1,0); (0,0), under the tail then, comes next.
    const instance: SnakeInstance = {
      width: 3,
      height: 2,
      length: 2,
      body: [[0, 0]],
      apples: [
        [1, 0],
        [0, 0],
      ],
      order: 'given',
    };
    const split = splitSnake(instance, 1, 6)!;
    for (const cube of split.cubes) {
      const apple = cube.instance.apples[0];
      if (apple !== undefined)
        expect(cube.instance.body.some(([x, y]) => x === apple[0] && y === apple[1])).toBe(false);
    }
    expect(split.cubes.some((c) => c.depth > 1)).toBe(true);
  });

  it('does not split a walk of exactly `survive` steps', () => {
    const instance: SnakeInstance = {
      width: 3,
      height: 3,
      length: 3,
      body: [[0, 0]],
      apples: [],
      order: 'any',
      survive: 5,
    };
    expect(splitSnake(instance, 1, 5)).toBeUndefined();
  });
});
