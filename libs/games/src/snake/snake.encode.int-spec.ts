import { describe, expect, it } from 'vitest';

import { KissatRunner } from '@satfarm/solver';

import type { EncodeOptions } from '../game-definition.js';

import { encodeSnake } from './snake.encode.js';
import { generateSnake } from './snake.generate.js';
import { type SnakeInstance, SnakeSimulator } from './snake.model.js';
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

const generated = (
  width: number,
  height: number,
  apples: number,
  length: number,
  order: 'any' | 'given',
  seed: number,
): [string, SnakeInstance] => [
  `${width}x${height}, ${apples} apples, length ${length}, ${order} order, seed ${seed}`,
  generateSnake({ width, height, apples, length, order, seed }),
];

// Besides two plain seeds, seeds where the body forces detours: optimum 2 to 8 steps above the lower bound.
const tiny: Array<[string, SnakeInstance]> = [
  generated(4, 4, 3, 3, 'any', 1),
  generated(4, 4, 3, 6, 'any', 38),
  generated(4, 4, 4, 5, 'any', 21),
  generated(4, 4, 3, 3, 'given', 4),
  generated(4, 4, 4, 5, 'given', 39),
  generated(3, 4, 3, 5, 'given', 13),
  generated(4, 3, 2, 7, 'given', 2),
  [
    '3x4 with a long body that must unwind first',
    {
      width: 3,
      height: 4,
      length: 6,
      body: [
        [1, 1],
        [0, 1],
        [0, 0],
        [1, 0],
        [2, 0],
        [2, 1],
      ],
      apples: [
        [0, 3],
        [2, 2],
      ],
      order: 'any',
    },
  ],
  [
    'head alone growing out, given order with an apple under the start',
    {
      width: 4,
      height: 3,
      length: 3,
      body: [[0, 0]],
      apples: [
        [3, 2],
        [0, 0],
        [2, 0],
      ],
      order: 'given',
    },
  ],
];

describe(encodeSnake.name, () => {
  it.each(tiny)(
    'finds the optimum of a breadth-first search and proves nothing shorter: %s',
    async (_, instance) => {
      const best = shortestByBfs(instance);
      expect(best).toBeDefined();
      const atBest = await solveAt(instance, best!);
      expect(atBest.sat && atBest.verdict).toEqual({ ok: true, cost: best });
      expect((await solveAt(instance, best! - 1)).sat).toBe(false);
    },
  );

  it('stays satisfiable above the optimum, with a plan no longer than the optimum', async () => {
    const instance = tiny[0]![1];
    const best = shortestByBfs(instance)!;
    const above = await solveAt(instance, best + 3);
    expect(above.sat && above.verdict.ok).toBe(true);
    expect(above.sat && above.plan.path.length - 1).toBeGreaterThanOrEqual(best);
  });

  it.each([
    { amo: 'sequential' },
    { amo: 'commander' },
    { amo: 'pairwise' },
    { deadline: 'none' },
    { deadline: 'single' },
    { deadline: 'window' },
    { reach: false },
  ] as Variant[])('gives the same answers with encoding choice %o', async (variant) => {
    for (const instance of [tiny[1]![1], tiny[3]![1]]) {
      const best = shortestByBfs(instance)!;
      const atBest = await solveAt(instance, best, variant);
      expect(atBest.sat && atBest.verdict.ok).toBe(true);
      expect((await solveAt(instance, best - 1, variant)).sat).toBe(false);
    }
  });

  it.each([{}, { deadline: 'none' }] as Variant[])(
    'counts an apple once however often the head returns to its cell (%o)',
    async (variant) => {
      // A head alone: after the first apple it may step back and forth over that apple's cell.
      const instance: SnakeInstance = {
        width: 6,
        height: 2,
        length: 1,
        body: [[1, 0]],
        apples: [
          [0, 0],
          [5, 1],
        ],
        order: 'any',
      };
      const best = shortestByBfs(instance)!;
      expect(best).toBe(7);
      expect((await solveAt(instance, best - 1, variant)).sat).toBe(false);
      const atBest = await solveAt(instance, best, variant);
      expect(atBest.sat && atBest.verdict.ok).toBe(true);
    },
  );

  it('is unsatisfiable at every horizon when the body walls the apple off', async () => {
    // A corridor: the head faces the wall at the left end and cannot turn; the apple is behind.
    const instance: SnakeInstance = {
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
    expect(shortestByBfs(instance)).toBeUndefined();
    for (const t of [3, 6, 12]) expect((await solveAt(instance, t)).sat).toBe(false);
  });

  it('needs the tail to move out before the head may enter its cell, but allows that same step', async () => {
    // A 2x2 ring filled by the snake: it can only chase its own tail.
    const full: SnakeInstance = {
      width: 2,
      height: 2,
      length: 4,
      body: [
        [0, 0],
        [1, 0],
        [1, 1],
        [0, 1],
      ],
      apples: [],
      order: 'any',
      survive: 5,
    };
    const ring = await solveAt(full, 5);
    expect(ring.sat && ring.verdict).toEqual({ ok: true, cost: 5 });
    expect(ring.sat && ring.plan.path[1]).toEqual([0, 1]);
  });

  it.each([
    [
      'a 1x4 corridor',
      {
        width: 4,
        height: 1,
        length: 2,
        body: [
          [1, 0],
          [2, 0],
        ],
        apples: [],
        order: 'any',
      },
      2,
    ],
    [
      'a 3x3 grid with a long snake',
      {
        width: 3,
        height: 3,
        length: 7,
        body: [
          [1, 1],
          [1, 0],
          [0, 0],
          [0, 1],
          [0, 2],
          [1, 2],
          [2, 2],
        ],
        apples: [],
        order: 'any',
      },
      6,
    ],
  ] as Array<[string, Omit<SnakeInstance, 'survive'>, number]>)(
    'survives exactly as long as a search of walks says: %s',
    async (_, base, steps) => {
      for (const survive of [steps - 1, steps, steps + 1]) {
        const instance = { ...base, survive };
        const expected = canSurvive(new SnakeSimulator(instance), survive);
        const result = await solveAt(instance, survive);
        expect(result.sat).toBe(expected);
        if (result.sat) expect(result.verdict).toEqual({ ok: true, cost: survive });
      }
    },
  );

  it('makes a horizon below the survival length unsatisfiable', async () => {
    const instance: SnakeInstance = {
      width: 3,
      height: 3,
      length: 2,
      body: [[0, 0]],
      apples: [],
      order: 'any',
      survive: 4,
    };
    expect((await solveAt(instance, 3)).sat).toBe(false);
    expect((await solveAt(instance, 4)).sat).toBe(true);
  });
});
