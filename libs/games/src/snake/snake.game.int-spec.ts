import { describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';

import { snakeGame } from './index.js';
import { generateSnake } from './snake.generate.js';
import { SnakeSimulator } from './snake.model.js';

describe('snakeGame', () => {
  // 4x3, a snake of 7 and 2 apples in the given order: the body forces a long detour (the lower
  // bound says 3, the optimum is 11).
  const detour = generateSnake({ width: 4, height: 3, apples: 2, length: 7, order: 'given', seed: 2 });

  it('sweeps to the optimum, proven by UNSAT just below, and the plan replays in the simulator', async () => {
    const report = await solveParsed(snakeGame, detour, { parallelism: 2 });
    expect(report).toMatchObject({ game: 'snake', status: 'optimal', verified: true, horizon: 11 });
    expect(report.bounds).toEqual({ lower: 11, upper: 11 });
    expect(report.horizons.find((h) => h.t === 10)?.result).toBe('unsat');
    const path = (report.solution as { path: [number, number][] }).path;
    expect(path).toHaveLength(12);
    const sim = new SnakeSimulator(detour);
    for (const cell of path.slice(1)) expect(sim.move(sim.grid.index(cell)).ok).toBe(true);
    expect(sim.isDone()).toBe(true);
  });

  it('ends unsatisfiable at once when the body walls the apple off', async () => {
    const instance = snakeGame.parse({
      width: 5,
      height: 1,
      length: 3,
      body: [
        [1, 0],
        [2, 0],
        [3, 0],
      ],
      apples: [[4, 0]],
    });
    const report = await solveParsed(snakeGame, instance, { parallelism: 2 });
    expect(report.status).toBe('unsatisfiable');
    expect(report.solution).toBeUndefined();
  });

  it('ends unsatisfiable when the horizon cap is below the optimum', async () => {
    const report = await solveParsed(snakeGame, detour, { parallelism: 2, maxHorizon: 10 });
    expect(report.status).toBe('unsatisfiable');
    expect(report.bounds.lower).toBe(11);
  });

  it('solves survive as its single horizon', async () => {
    const instance = snakeGame.parse({ width: 3, height: 3, length: 5, body: [[0, 0]], survive: 12 });
    expect(snakeGame.lowerBound(instance)).toBe(12);
    expect(snakeGame.defaultMaxHorizon(instance)).toBe(12);
    const report = await solveParsed(snakeGame, instance, { parallelism: 1 });
    expect(report).toMatchObject({ status: 'optimal', horizon: 12, verified: true });
    expect(report.horizons.find((h) => h.t === 12)?.result).toBe('sat');
    expect(report.horizons.every((h) => h.t <= 12 && (h.t === 12 || h.result === 'unsat'))).toBe(true);
  });
});
