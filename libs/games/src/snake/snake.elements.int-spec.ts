import { describe, expect, it } from 'vitest';

import { KissatRunner } from '@satfarm/solver';

import type { EncodeOptions } from '../game-definition.js';

import { encodeSnake } from './snake.encode.js';
import { generateSnake } from './snake.generate.js';
import { analyseSnake } from './snake.lower-bound.js';
import { type SnakeInstance, startStates } from './snake.model.js';
import { parseSnakeInstance } from './snake.parse.js';
import { verifySnake } from './snake.verify.js';
import { canSurvive, shortestByBfs } from './snake.search.testing.js';

const kissat = new KissatRunner();

type Variant = EncodeOptions['variant'];

async function solveAt(instance: SnakeInstance, t: number, variant?: Variant) {
  const encoded = encodeSnake(instance, t, { variant });
  const outcome = await kissat.solve({ formula: encoded.formula });
  if (outcome.status === 'unsat') return { sat: false as const };
  if (outcome.status !== 'sat') throw new Error(`solver gave ${outcome.status}`);
  const plan = encoded.decode(outcome.model);
  return { sat: true as const, plan, verdict: verifySnake(instance, plan, t) };
}

const parse = (json: object): SnakeInstance => parseSnakeInstance(json);

const cases: Array<[string, SnakeInstance]> = [
  [
    'the seed example with start any (today [0, 0] holds an apple)',
    parse({
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
      start: 'any',
    }),
  ],
  [
    'start any, given order',
    parse({
      width: 4,
      height: 3,
      length: 2,
      apples: [
        [3, 2],
        [0, 0],
        [3, 0],
      ],
      order: 'given',
      start: 'any',
    }),
  ],
  [
    'walls to go around',
    parse({
      width: 4,
      height: 4,
      length: 2,
      body: [[0, 0]],
      apples: [
        [2, 0],
        [0, 3],
      ],
      walls: [
        [1, 1],
        [1, 2],
        [1, 3],
      ],
    }),
  ],
  [
    'walls and a strict tail on a long snake',
    parse({
      width: 4,
      height: 3,
      length: 4,
      body: [
        [1, 1],
        [1, 0],
        [0, 0],
        [0, 1],
      ],
      apples: [
        [3, 2],
        [0, 2],
      ],
      walls: [[2, 1]],
      tail: 'strict',
    }),
  ],
  [
    'a strict tail that must not chase itself on a ring',
    parse({
      width: 3,
      height: 3,
      length: 5,
      body: [
        [0, 1],
        [0, 0],
        [1, 0],
        [2, 0],
        [2, 1],
      ],
      apples: [[1, 1]],
      tail: 'strict',
    }),
  ],
  [
    'a spawn chain, one cell under the body and one on the last apple eaten',
    parse({
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
      spawn: [
        [1, 0],
        [3, 2],
        [3, 2],
        [0, 2],
      ],
    }),
  ],
  [
    'a spawn chain appearing on the cell the head just entered',
    parse({
      width: 3,
      height: 3,
      length: 1,
      start: [0, 0],
      apples: [[2, 0]],
      spawn: [
        [2, 0],
        [0, 2],
      ],
    }),
  ],
  [
    'spawn, strict tail, walls and start any together',
    parse({
      width: 4,
      height: 4,
      length: 2,
      start: 'any',
      apples: [
        [0, 0],
        [3, 3],
      ],
      spawn: [
        [3, 0],
        [0, 3],
        [2, 2],
      ],
      walls: [
        [1, 1],
        [2, 1],
      ],
      tail: 'strict',
    }),
  ],
  [
    'generated: spawn chain and strict tail',
    generateSnake({ width: 4, height: 3, apples: 2, length: 3, seed: 5, spawn: 3, tail: 'strict' }),
  ],
  [
    'generated: start any, given order',
    generateSnake({ width: 4, height: 4, apples: 3, length: 4, seed: 2, order: 'given', start: 'any' }),
  ],
];

describe('Snake with start any, walls, spawn and a strict tail', () => {
  it.each(cases)(
    'finds the optimum of a search over the simulator and proves nothing shorter: %s',
    async (_, instance) => {
      const best = shortestByBfs(instance);
      expect(best).toBeDefined();
      const { lowerBound, unsolvable } = analyseSnake(instance);
      expect(unsolvable).toBe(false);
      expect(lowerBound).toBeLessThanOrEqual(best!);
      const atBest = await solveAt(instance, best!);
      expect(atBest.sat && atBest.verdict).toEqual({ ok: true, cost: best });
      expect((await solveAt(instance, best! - 1)).sat).toBe(false);
    },
  );

  it.each([
    { amo: 'sequential' },
    { deadline: 'none' },
    { deadline: 'window' },
    { deadline: 'single' },
    { reach: false },
  ] as Variant[])('gives the same answers with encoding choice %o', async (variant) => {
    for (const [, instance] of [cases[2]!, cases[5]!, cases[7]!]) {
      const best = shortestByBfs(instance)!;
      const atBest = await solveAt(instance, best, variant);
      expect(atBest.sat && atBest.verdict.ok).toBe(true);
      expect((await solveAt(instance, best - 1, variant)).sat).toBe(false);
    }
  });

  it('stays satisfiable above the optimum with a spawn chain, stopping at the goal', async () => {
    const instance = cases[5]![1];
    const best = shortestByBfs(instance)!;
    const above = await solveAt(instance, best + 3);
    expect(above.sat && above.verdict.ok).toBe(true);
  });

  it('finds no plan when walls shut an apple off, and says so before any solver runs', async () => {
    const instance = parse({
      width: 4,
      height: 3,
      length: 1,
      start: 'any',
      apples: [
        [0, 0],
        [3, 2],
      ],
      walls: [
        [2, 0],
        [2, 1],
        [2, 2],
      ],
    });
    expect(shortestByBfs(instance)).toBeUndefined();
    expect(analyseSnake(instance).unsolvable).toBe(true);
    for (const t of [4, 8]) expect((await solveAt(instance, t)).sat).toBe(false);
  });
});

describe('Snake survive walks with the new elements', () => {
  // A ring of 8 cells around a wall: a snake of 8 fills it and moves on only by following its tail.
  it.each([
    ['follows', 7, true],
    ['strict', 7, true],
    ['follows', 8, true],
    ['strict', 8, false],
  ] as const)(
    'survives exactly as long as a search says, from any start, tail %s, length %i',
    async (tail, length, forever) => {
      for (const survive of [6, 8, 10]) {
        const instance = parse({ width: 3, height: 3, length, start: 'any', walls: [[1, 1]], tail, survive });
        const expected = startStates(instance).some((s) => canSurvive(s, survive));
        expect(expected).toBe(forever || survive < length);
        const result = await solveAt(instance, survive);
        expect(result.sat, `survive ${survive}`).toBe(expected);
        if (result.sat) expect(result.verdict).toEqual({ ok: true, cost: survive });
      }
    },
  );
});

/** A small random instance with every new element in play, drawn from `seed` (a plain LCG). */
function randomInstance(seed: number): SnakeInstance | undefined {
  let state = seed * 7919 + 17;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return Math.floor((state / 2147483648) * n);
  };
  const width = 3 + next(2);
  const height = 3;
  const cells = Array.from({ length: width * height }, (_, i): [number, number] => [
    i % width,
    Math.floor(i / width),
  ]);
  for (let i = cells.length - 1; i > 0; i--) {
    const j = next(i + 1);
    [cells[i], cells[j]] = [cells[j]!, cells[i]!];
  }
  const free = next(2) === 0;
  const start = cells.pop()!;
  const apples = cells.splice(0, 1 + next(2));
  const walls = cells.splice(0, next(3));
  const spawn = Array.from({ length: next(4) }, () => [...cells, ...apples, start][next(cells.length + 2)]!);
  const json: Record<string, unknown> = {
    width,
    height,
    length: 1 + next(3),
    apples,
    start: free ? 'any' : start,
    tail: next(2) === 0 ? 'strict' : 'follows',
  };
  if (walls.length > 0) json.walls = walls;
  if (spawn.length > 0) json.spawn = spawn;
  try {
    return parse(json);
  } catch {
    return undefined;
  }
}

describe('Snake against the simulator on random small instances', () => {
  const instances = Array.from({ length: 40 }, (_, seed) => randomInstance(seed)).filter(
    (i): i is SnakeInstance => i !== undefined,
  );

  it('agrees with a breadth-first search on the optimum or on there being none', async () => {
    let solved = 0;
    for (const instance of instances) {
      const where = JSON.stringify(instance);
      const best = shortestByBfs(instance);
      const { lowerBound, unsolvable } = analyseSnake(instance);
      if (best === undefined) {
        for (const t of [lowerBound, lowerBound + 6])
          expect((await solveAt(instance, t)).sat, where).toBe(false);
        continue;
      }
      solved++;
      expect(unsolvable, where).toBe(false);
      expect(lowerBound, where).toBeLessThanOrEqual(best);
      const atBest = await solveAt(instance, best);
      expect(atBest.sat && atBest.verdict, where).toEqual({ ok: true, cost: best });
      if (best > 0) expect((await solveAt(instance, best - 1)).sat, where).toBe(false);
    }
    expect(solved).toBeGreaterThan(instances.length / 2);
  });
});
