import { describe, expect, it } from 'vitest';

import { InputError } from '../input-error.js';
import { generateSnake } from './snake.generate.js';
import { analyseSnake, snakeDefaultMaxHorizon } from './snake.lower-bound.js';
import {
  type Cell,
  type SnakeInstance,
  SnakeSimulator,
  type SnakeSolution,
  startCells,
  startStates,
} from './snake.model.js';
import { parseSnakeInstance } from './snake.parse.js';
import { renderSnake, snakeText, summarizeSnake } from './snake.render.js';
import { joinSnakePlan, splitSnake } from './snake.split.js';
import { verifySnake } from './snake.verify.js';

function sim(json: object): SnakeSimulator {
  return new SnakeSimulator(parseSnakeInstance({ width: 4, height: 3, ...json }));
}

const at = (s: SnakeSimulator, cell: Cell): number => s.grid.index(cell);
const cells = (s: SnakeSimulator, list: number[]): Cell[] => list.map((c) => s.grid.cell(c));
const walk = (s: SnakeSimulator, path: Cell[]) => path.map((c) => s.move(at(s, c)));

function errorOf(input: unknown): InputError {
  try {
    parseSnakeInstance(input);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error('expected an InputError');
}

/** A shortest plan from every start the instance allows, by breadth-first search, or undefined. */
function shortestPlan(instance: SnakeInstance): SnakeSolution | undefined {
  let frontier = startStates(instance).map((s) => ({ sim: s, path: [s.head] }));
  const seen = new Set(frontier.map((n) => n.sim.key()));
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { sim: state, path } of frontier) {
      for (const move of state.legalMoves()) {
        const child = state.clone();
        child.move(move);
        if (child.isDone()) return { path: [...path, move].map((c) => child.grid.cell(c)) };
        if (seen.has(child.key())) continue;
        seen.add(child.key());
        next.push({ sim: child, path: [...path, move] });
      }
    }
    frontier = next;
  }
  return undefined;
}

describe('walls', () => {
  it('are never entered', () => {
    const sut = sim({ start: [0, 0], walls: [[1, 0]] });
    expect(sut.check(at(sut, [1, 0]))).toEqual({ ok: false, reason: 'the head hits a wall' });
    expect(cells(sut, sut.legalMoves())).toEqual([[0, 1]]);
  });

  it.each([
    [
      {
        apples: [[2, 0]],
        walls: [
          [1, 1],
          [2, 0],
        ],
      },
      'walls[1]',
      'holds an apple',
    ],
    [{ start: [1, 1], walls: [[1, 1]] }, 'walls[0]', "on the snake's body"],
    [
      {
        body: [
          [1, 1],
          [1, 2],
        ],
        walls: [[1, 2]],
      },
      'walls[0]',
      "on the snake's body",
    ],
    [
      {
        apples: [[3, 2]],
        spawn: [[2, 2]],
        walls: [
          [0, 2],
          [2, 2],
        ],
      },
      'walls[1]',
      'on a spawn cell',
    ],
    [{ walls: [[4, 0]] }, 'walls[0]', 'outside the 4x3 grid'],
    [
      {
        walls: [
          [2, 0],
          [3, 0],
          [2, 0],
        ],
      },
      'walls[2]',
      'same cell as walls[0]',
    ],
    [{ walls: 'none' }, 'walls', 'expected an array of [x, y] cells'],
  ])('are refused naming the field and the reason: %o', (fields, field, reason) => {
    const error = errorOf({ width: 4, height: 3, ...fields });
    expect([error.field, error.reason]).toEqual([field, reason]);
  });

  it('make the bound go around them, and an apple they shut off makes the instance unsolvable', () => {
    const around = parseSnakeInstance({
      width: 3,
      height: 3,
      apples: [[2, 0]],
      walls: [
        [1, 0],
        [1, 1],
      ],
    });
    expect(analyseSnake(around)).toEqual({ lowerBound: 6, unsolvable: false });
    const shut = parseSnakeInstance({
      width: 3,
      height: 3,
      apples: [[2, 0]],
      walls: [
        [1, 0],
        [1, 1],
        [1, 2],
      ],
    });
    expect(analyseSnake(shut).unsolvable).toBe(true);
    expect(snakeDefaultMaxHorizon(shut)).toBeLessThan(analyseSnake(shut).lowerBound);
  });
});

describe('a strict tail', () => {
  const ring = {
    width: 2,
    height: 2,
    body: [
      [0, 0],
      [1, 0],
      [1, 1],
    ],
  };

  it("lets the head into the cell the tail leaves only with the rule 'follows'", () => {
    const full = { ...ring, body: [...ring.body, [0, 1]] };
    const loose = new SnakeSimulator(parseSnakeInstance({ ...full, survive: 1 }));
    expect(loose.move(loose.grid.index([0, 1])).ok).toBe(true);
    const strict = new SnakeSimulator(parseSnakeInstance({ ...full, survive: 1, tail: 'strict' }));
    expect(strict.check(strict.grid.index([0, 1]))).toEqual({ ok: false, reason: 'the head bites the body' });
  });

  it('still lets the head into a cell the tail left a step before', () => {
    const sut = new SnakeSimulator(parseSnakeInstance({ ...ring, tail: 'strict' }));
    expect(sut.move(sut.grid.index([0, 1])).ok).toBe(true);
    expect(cells(sut, sut.body())).toEqual([
      [0, 1],
      [0, 0],
      [1, 0],
    ]);
    expect(sut.check(sut.grid.index([1, 1])).ok).toBe(true);
  });

  it('is read and refused by name', () => {
    expect(parseSnakeInstance({ width: 2, height: 2, tail: 'strict' }).tail).toBe('strict');
    const error = errorOf({ width: 2, height: 2, tail: 'loose' });
    expect([error.field, error.reason]).toEqual(['tail', 'expected "follows" or "strict", got "loose"']);
  });
});

describe('start any', () => {
  const seed = {
    width: 6,
    height: 6,
    length: 3,
    apples: [
      [0, 5],
      [2, 2],
      [2, 1],
      [3, 5],
      [0, 0],
    ],
  };

  it('is read as an empty body that prints and reads back the same', () => {
    const instance = parseSnakeInstance({ ...seed, start: 'any' });
    expect(instance).toMatchObject({ start: 'any', body: [], length: 3 });
    expect(parseSnakeInstance(JSON.parse(JSON.stringify(instance)))).toEqual(instance);
    expect(parseSnakeInstance({ width: 2, height: 2, start: 'any' }).length).toBe(1);
    const error = errorOf({ ...seed, start: 'anywhere' });
    expect([error.field, error.reason]).toEqual(['start', 'expected [x, y] or "any", got "anywhere"']);
    expect(errorOf({ ...seed, start: 'any', body: [[1, 1]] }).field).toBe('start');
  });

  it('allows every cell with no wall and no apple present at the start', () => {
    const instance = parseSnakeInstance({
      width: 3,
      height: 2,
      start: 'any',
      apples: [
        [0, 0],
        [2, 1],
      ],
      order: 'given',
      walls: [[1, 1]],
    });
    expect(startCells(instance)).toEqual([1, 2, 3, 5]);
    expect(startStates(instance).map((s) => s.body())).toEqual([[1], [2], [3], [5]]);
    expect(() => new SnakeSimulator(instance)).toThrow(/startStates/);
  });

  it('verifies a plan from any legal start cell, and refuses one from a wall or an apple', () => {
    const instance = parseSnakeInstance({ ...seed, start: 'any', walls: [[5, 5]] });
    const plan = shortestPlan(instance)!;
    expect(verifySnake(instance, plan, 40)).toEqual({ ok: true, cost: plan.path.length - 1 });
    expect(
      verifySnake(
        instance,
        {
          path: [
            [0, 0],
            [1, 0],
          ],
        },
        40,
      ),
    ).toEqual({
      ok: false,
      reason: 'path[0] is no start cell (a wall or an apple)',
    });
    expect(
      verifySnake(
        instance,
        {
          path: [
            [5, 5],
            [5, 4],
          ],
        },
        40,
      ).ok,
    ).toBe(false);
  });

  it('bounds the plan from the nearest start', () => {
    const instance = parseSnakeInstance({
      width: 5,
      height: 1,
      start: 'any',
      apples: [
        [0, 0],
        [4, 0],
      ],
    });
    expect(analyseSnake(instance)).toEqual({ lowerBound: 5, unsolvable: false });
    expect(shortestPlan(instance)!.path).toHaveLength(6);
  });

  it('renders the board without a snake when there is no plan, and from the plan when there is', () => {
    const instance = parseSnakeInstance({ ...seed, start: 'any' });
    expect(renderSnake(instance, undefined).frames).toEqual([
      { t: 0, body: [], apples: seed.apples, length: 3 },
    ]);
    const plan = shortestPlan(instance)!;
    const view = renderSnake(instance, plan);
    expect(view.frames).toHaveLength(plan.path.length);
    expect(view.frames[0]!.head).toEqual(plan.path[0]);
    expect(snakeText(renderSnake(instance, undefined))).toContain('0 apples eaten');
    expect(summarizeSnake(instance)).toBe('6x6, length 3, 5 apples, start any');
  });

  it('splits with the start cell as the first move of each cube', () => {
    const instance = parseSnakeInstance({
      width: 3,
      height: 3,
      start: 'any',
      length: 2,
      apples: [
        [0, 0],
        [2, 2],
      ],
      walls: [[1, 1]],
    });
    const best = shortestPlan(instance)!.path.length - 1;
    const split = splitSnake(instance, 1, best)!;
    expect(split.plan).toBeUndefined();
    for (const cube of split.cubes) {
      expect(cube.prefix.path).toHaveLength(2);
      expect(cube.depth).toBe(1);
      expect(cube.instance.start).toBeUndefined();
    }
    const through = split.cubes.map((c) => c.depth + shortestPlan(c.instance)!.path.length - 1);
    expect(Math.min(...through)).toBe(best);
    const cube = split.cubes[through.indexOf(best)]!;
    const joined = joinSnakePlan(instance, cube.prefix, shortestPlan(cube.instance)!);
    expect(verifySnake(instance, joined, best)).toEqual({ ok: true, cost: best });
  });
});

describe('a spawn chain', () => {
  it('puts an apple on the next chain cell each time one is eaten, until the chain ends', () => {
    const sut = sim({
      start: [0, 0],
      apples: [[1, 0]],
      spawn: [
        [3, 0],
        [3, 2],
      ],
    });
    expect(cells(sut, sut.presentCells())).toEqual([[1, 0]]);
    expect(sut.move(at(sut, [1, 0]))).toEqual({ ok: true, ate: 0 });
    expect(cells(sut, sut.presentCells())).toEqual([[3, 0]]);
    expect(cells(sut, sut.pendingSpawn())).toEqual([[3, 2]]);
    walk(sut, [[2, 0]]);
    expect(sut.move(at(sut, [3, 0]))).toEqual({ ok: true, ate: 1 });
    expect(cells(sut, sut.presentCells())).toEqual([[3, 2]]);
    expect(sut.isDone()).toBe(false);
    walk(sut, [[3, 1]]);
    expect(sut.move(at(sut, [3, 2]))).toEqual({ ok: true, ate: 2 });
    expect(sut.presentCells()).toEqual([]);
    expect(sut.isDone()).toBe(true);
    expect(sut.length).toBe(4);
  });

  it('adds nothing where an apple already is', () => {
    const sut = sim({
      start: [0, 0],
      apples: [
        [1, 0],
        [2, 0],
      ],
      spawn: [[2, 0]],
    });
    walk(sut, [[1, 0]]);
    expect(cells(sut, sut.presentCells())).toEqual([[2, 0]]);
    expect(sut.move(at(sut, [2, 0])).ok).toBe(true);
    expect(sut.isDone()).toBe(true);
    expect(sut.applesEaten).toBe(2);
  });

  it('puts the apple on the cell just entered after eating there: the head must leave and come back', () => {
    const sut = sim({ start: [0, 0], apples: [[1, 0]], spawn: [[1, 0]] });
    expect(sut.move(at(sut, [1, 0]))).toEqual({ ok: true, ate: 0 });
    expect(cells(sut, sut.presentCells())).toEqual([[1, 0]]);
    walk(sut, [[1, 1]]);
    // The apple lies under the tail now, and eating would keep the tail there.
    expect(sut.check(at(sut, [1, 0]))).toEqual({ ok: false, reason: 'the head bites the body' });
    walk(sut, [
      [0, 1],
      [0, 0],
    ]);
    expect(sut.move(at(sut, [1, 0]))).toEqual({ ok: true, ate: 1 });
    expect(sut.isDone()).toBe(true);
  });

  it('may put an apple under the body, eaten only once the body has left it', () => {
    const sut = sim({
      body: [
        [1, 1],
        [1, 0],
        [0, 0],
      ],
      apples: [[2, 1]],
      spawn: [[0, 0]],
    });
    walk(sut, [[2, 1]]);
    expect(cells(sut, sut.presentCells())).toEqual([[0, 0]]);
    expect(cells(sut, sut.body())).toContainEqual([0, 0]);
    expect(sut.isDone()).toBe(false);
    walk(sut, [
      [2, 2],
      [1, 2],
      [0, 2],
      [0, 1],
    ]);
    expect(sut.move(at(sut, [0, 0]))).toEqual({ ok: true, ate: 1 });
    expect(sut.isDone()).toBe(true);
  });

  it('is not done before the whole chain has appeared', () => {
    const sut = sim({ start: [0, 0], apples: [[1, 0]], spawn: [[1, 0]] });
    expect(sut.isDone()).toBe(false);
    const none = sim({ start: [0, 0], spawn: [[1, 0]] });
    expect(none.isDone()).toBe(false);
    expect(analyseSnake(none.instance).unsolvable).toBe(true);
  });

  it('tells states apart by how much of the chain has appeared', () => {
    const a = sim({ start: [0, 0], apples: [[1, 0]], spawn: [[2, 0]] });
    const b = a.clone();
    walk(b, [[0, 1]]);
    walk(a, [[1, 0]]);
    expect(a.key()).not.toBe(b.key());
  });

  it.each([
    [{ apples: [[1, 1]], order: 'given', spawn: [[2, 2]] }, 'spawn', 'needs order "any"'],
    [{ survive: 3, spawn: [[2, 2]] }, 'spawn', 'cannot be combined with survive'],
    [{ apples: [[1, 1]], spawn: [[2, 7]] }, 'spawn[0]', 'outside the 4x3 grid'],
    [{ apples: [[1, 1]], spawn: [1, 2] }, 'spawn[0]', 'expected [x, y] with integer coordinates'],
    [{ apples: [[1, 1]], spawn: {} }, 'spawn', 'expected an array of [x, y] cells'],
  ])('is refused naming the field and the reason: %o', (fields, field, reason) => {
    const error = errorOf({ width: 4, height: 3, ...fields });
    expect([error.field, error.reason]).toEqual([field, reason]);
  });

  it('takes repeated cells and cells on apples or the body', () => {
    const instance = parseSnakeInstance({
      width: 3,
      height: 3,
      body: [[0, 0]],
      apples: [[1, 1]],
      spawn: [
        [1, 1],
        [0, 0],
        [0, 0],
      ],
    });
    expect(instance.spawn).toHaveLength(3);
  });

  it('keeps the bound admissible: every apple cell on the tour, and a step per chain cell', () => {
    for (let seed = 0; seed < 12; seed++) {
      const instance = generateSnake({
        width: 3,
        height: 3,
        apples: 1 + (seed % 2),
        length: 2,
        seed,
        spawn: 3,
      });
      const best = shortestPlan(instance)!.path.length - 1;
      expect(analyseSnake(instance).lowerBound, `seed ${seed}`).toBeLessThanOrEqual(best);
      expect(analyseSnake(instance).lowerBound).toBeGreaterThanOrEqual(4);
    }
  });

  it('renders spawned apples and the chain still to come', () => {
    const instance = parseSnakeInstance({
      width: 3,
      height: 2,
      start: [0, 0],
      apples: [[1, 0]],
      spawn: [
        [2, 1],
        [2, 0],
      ],
      walls: [[0, 1]],
    });
    const view = renderSnake(instance, {
      path: [
        [0, 0],
        [1, 0],
        [1, 1],
        [2, 1],
        [2, 0],
      ],
    });
    expect(view.walls).toEqual([[0, 1]]);
    expect(view.frames.map((f) => [f.apples, f.spawn, f.ate])).toEqual([
      [
        [[1, 0]],
        [
          [2, 1],
          [2, 0],
        ],
        undefined,
      ],
      [[[2, 1]], [[2, 0]], 0],
      [[[2, 1]], [[2, 0]], undefined],
      [[[2, 0]], [], 1],
      [[], [], 2],
    ]);
    expect(snakeText(view).split('\n').slice(0, 2)).toEqual(['H @ +', '# . +']);
  });

  it('splits into cubes whose instances carry the apples and the chain still to come', () => {
    for (let seed = 0; seed < 6; seed++) {
      const instance = generateSnake({ width: 3, height: 3, apples: 2, length: 2, seed, spawn: 2 });
      const best = shortestPlan(instance)!.path.length - 1;
      const split = splitSnake(instance, 2, best)!;
      if (split.plan !== undefined) continue;
      const through = split.cubes.map(
        (c) => c.depth + (shortestPlan(c.instance)?.path.length ?? Infinity) - 1,
      );
      expect(Math.min(...through), `seed ${seed}`).toBe(best);
      const cube = split.cubes[through.indexOf(best)]!;
      const joined = joinSnakePlan(instance, cube.prefix, shortestPlan(cube.instance)!);
      expect(verifySnake(instance, joined, best)).toEqual({ ok: true, cost: best });
    }
  });
});

describe('generate snake with spawn, tail and start', () => {
  it('makes valid instances that read back the same and have a plan', () => {
    for (const options of [
      { spawn: 3 },
      { tail: 'strict' as const },
      { start: 'any' as const },
      { spawn: 2, tail: 'strict' as const, start: 'any' as const },
    ]) {
      const instance = generateSnake({ width: 4, height: 3, apples: 2, length: 3, seed: 3, ...options });
      expect(parseSnakeInstance(JSON.parse(JSON.stringify(instance)))).toEqual(instance);
      expect(shortestPlan(instance), JSON.stringify(options)).toBeDefined();
    }
  });

  it('keeps the instances of the other options as they were', () => {
    const plain = generateSnake({ width: 5, height: 5, apples: 4, seed: 9 });
    expect(generateSnake({ width: 5, height: 5, apples: 4, seed: 9, spawn: 2 })).toMatchObject({
      body: plain.body,
      apples: plain.apples,
    });
  });

  it('refuses a chain that does not fit, or with order given, naming spawn', () => {
    expect(() => generateSnake({ width: 3, height: 3, apples: 3, length: 3, seed: 1, spawn: 3 })).toThrow(
      /^spawn: /,
    );
    expect(() =>
      generateSnake({ width: 3, height: 3, apples: 1, seed: 1, spawn: 1, order: 'given' }),
    ).toThrow('spawn: needs order "any"');
  });
});
