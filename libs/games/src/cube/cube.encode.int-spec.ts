import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';

import { KissatRunner } from '@satfarm/solver';

import type { EncodeOptions } from '../game-definition.js';
import { cubeVariant, encodeCube } from './cube.encode.js';
import { generateScramble } from './cube.generate.js';
import { cubeLowerBound } from './cube.lower-bound.js';
import { type CubeInstance, type Metric } from './cube.model.js';
import { parseCubeInstance } from './cube.parse.js';
import { PocketCubeDistances } from './cube.reference.js';
import { cubePlanLength, verifyCube } from './cube.verify.js';

const kissat = new KissatRunner();

/** Solves one horizon with the real kissat: the verified plan's length, or 'unsat'. */
async function solveAt(
  instance: CubeInstance,
  horizon: number,
  options?: EncodeOptions,
): Promise<number | 'unsat'> {
  const encoded = encodeCube(instance, horizon, options);
  const outcome = await kissat.solve({ formula: encoded.formula, timeoutMs: 50_000 });
  if (outcome.status === 'unsat') return 'unsat';
  if (outcome.status !== 'sat') throw new Error(`kissat gave ${outcome.status} at horizon ${horizon}`);
  const plan = encoded.decode(outcome.model);
  const verdict = verifyCube(instance, plan, horizon);
  if (!verdict.ok) throw new Error(`plan ${plan.moves.join(' ')} fails: ${verdict.reason}`);
  return cubePlanLength(plan);
}

/** Seeded 2x2 positions at the given distances, with their distance from the reference table. */
function pocketStates(
  metric: Metric,
  distances: number[],
  seed: number,
): { instance: CubeInstance; distance: number }[] {
  const table = PocketCubeDistances.of(metric);
  const rng = xoroshiro128plus(seed);
  return distances.map((d) => {
    const indices = table.indicesAt(d);
    const state = table.stateAt(indices[unsafeUniformIntDistribution(0, indices.length - 1, rng)]!);
    return { instance: parseCubeInstance({ size: 2, facelets: state.toFacelets(), metric }), distance: d };
  });
}

describe(encodeCube.name, () => {
  it('finds plans of exactly the reference distance on seeded 2x2 states, and none one shorter', async () => {
    const cases = pocketStates('htm', [1, 2, 3, 4, 5, 5, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7], 11);
    for (const { instance, distance } of cases) {
      expect(cubeLowerBound(instance)).toBeLessThanOrEqual(distance);
      expect(await solveAt(instance, distance)).toBe(distance);
      expect(await solveAt(instance, distance - 1)).toBe('unsat');
    }
  });

  it('is monotone: larger horizons stay satisfiable, with plans no shorter than the optimum', async () => {
    for (const { instance, distance } of pocketStates('htm', [4, 7], 5)) {
      for (const horizon of [distance + 1, distance + 3]) {
        const length = await solveAt(instance, horizon);
        expect(length).toBeGreaterThanOrEqual(distance);
        expect(length).toBeLessThanOrEqual(horizon);
      }
    }
  });

  it('keeps the optimum with every encoding choice switched off or on', async () => {
    const cases = pocketStates('htm', [6, 7], 3);
    const variants: Record<string, string | number | boolean>[] = [
      { perimeter: 0, window: 0, prune: 'none' },
      { perimeter: 0, window: 0, prune: 'face' },
      { perimeter: 0, bounds: 'both' },
      { perimeter: 3, bounds: 'goal', onehot: true },
      { perimeter: 4, backward: false },
    ];
    for (const variant of variants) {
      for (const { instance, distance } of cases) {
        expect(await solveAt(instance, distance, { variant })).toBe(distance);
        expect(await solveAt(instance, distance - 1, { variant })).toBe('unsat');
      }
    }
  });

  it('counts quarter turns in the quarter-turn metric', async () => {
    for (const { instance, distance } of pocketStates('qtm', [3, 5, 7, 8], 7)) {
      expect(await solveAt(instance, distance)).toBe(distance);
      expect(await solveAt(instance, distance - 1)).toBe('unsat');
    }
  });

  it('solves 3x3 scrambles within their length, verified by the sticker simulator', async () => {
    for (let seed = 1; seed <= 4; seed++) {
      const scramble = generateScramble(3, 4, seed).join(' ');
      const instance = parseCubeInstance({ size: 3, scramble });
      const length = await solveAt(instance, 4);
      expect(length).not.toBe('unsat');
      expect(length).toBeLessThanOrEqual(4);
      if (length !== 'unsat' && length > 0) expect(await solveAt(instance, length - 1)).toBe('unsat');
    }
  });

  it('answers a position already solved at horizon 0 and an unreachable one with UNSAT', async () => {
    expect(await solveAt(parseCubeInstance({ size: 3, scramble: '' }), 0)).toBe(0);
    expect(await solveAt(parseCubeInstance({ size: 3, scramble: 'R' }), 0)).toBe('unsat');
    expect(await solveAt(parseCubeInstance({ size: 2, scramble: 'R U' }), 1)).toBe('unsat');
  });

  it('rejects unknown encoding options by name', () => {
    const instance = parseCubeInstance({ size: 2, scramble: 'R' });
    expect(() => cubeVariant(instance, { variant: { colour: 'red' } })).toThrow(
      /unknown cube encoding option 'colour'/,
    );
    expect(() => cubeVariant(instance, { variant: { prune: 'most' } })).toThrow(/prune must be/);
  });
});
