import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';

import { generateScramble } from './cube.generate.js';
import {
  adoptCubeBound,
  cubeBoundIsOptimum,
  cubeBoundSearchPlan,
  cubeLowerBound,
  findCubeBound,
  PatternDatabase,
} from './cube.lower-bound.js';
import { CubeState, type Metric, parseMove } from './cube.model.js';
import { parseCubeInstance } from './cube.parse.js';
import { PocketCubeDistances } from './cube.reference.js';

describe(cubeLowerBound.name, () => {
  it.each<Metric>(['htm', 'qtm'])(
    'never exceeds the exact 2x2 distance (%s), and is exact near solved',
    (metric) => {
      const table = PocketCubeDistances.of(metric);
      const rng = xoroshiro128plus(42);
      let exactCount = 0;
      for (let i = 0; i < 400; i++) {
        const state = table.stateAt(unsafeUniformIntDistribution(0, 3_674_159, rng));
        const d = table.distance(state);
        const bound = cubeLowerBound(parseCubeInstance({ size: 2, facelets: state.toFacelets(), metric }));
        expect(bound).toBeLessThanOrEqual(d);
        if (metric === 'qtm') expect((d - bound) % 2).toBe(0);
        if (bound === d) exactCount++;
      }
      expect(exactCount).toBeGreaterThan(0);
      for (const d of [0, 1, 3, 5]) {
        const state = table.stateAt(table.indicesAt(d)[0]!);
        expect(cubeLowerBound(parseCubeInstance({ size: 2, facelets: state.toFacelets(), metric }))).toBe(d);
      }
    },
  );

  it('never exceeds the length of a 3x3 scramble', () => {
    for (let seed = 0; seed < 30; seed++) {
      const n = 1 + (seed % 12);
      const scramble = generateScramble(3, n, seed).join(' ');
      expect(cubeLowerBound(parseCubeInstance({ size: 3, scramble }))).toBeLessThanOrEqual(n);
      expect(cubeLowerBound(parseCubeInstance({ size: 3, scramble, metric: 'qtm' }))).toBeLessThanOrEqual(
        2 * n,
      );
    }
  });
});

describe(adoptCubeBound.name, () => {
  it("makes the default bound, its optimality and its plan answer what another thread's search found", () => {
    const instance = parseCubeInstance({ size: 3, scramble: "R U F' L2 D B' R2 U' F L", metric: 'htm' });
    const own = findCubeBound(instance);
    // Deliberately not what this thread finds, so that only the adopted answer can give it.
    adoptCubeBound(instance, { bound: own.bound + 1, exact: true, plan: [{ face: 'U', turns: 2 }] });
    expect(cubeLowerBound(instance)).toBe(own.bound + 1);
    expect(cubeBoundIsOptimum(instance)).toBe(true);
    expect(cubeBoundSearchPlan(instance)).toEqual({ moves: ['U2'], metric: 'htm' });
    // The same scramble in the other metric is another instance.
    const qtm = parseCubeInstance({ size: 3, scramble: "R U F' L2 D B' R2 U' F L", metric: 'qtm' });
    expect(cubeBoundIsOptimum(qtm)).toBe(findCubeBound(qtm).exact);
    expect(cubeLowerBound(qtm)).toBe(findCubeBound(qtm).bound);
  });
});

describe(PatternDatabase.name, () => {
  it('covers every pattern of the twist, flip and corner-permutation spaces', () => {
    expect(PatternDatabase.toSolved(2, 'htm', { kind: 'co' }).size).toBe(729);
    expect(PatternDatabase.toSolved(2, 'htm', { kind: 'cp' }).size).toBe(5040);
    expect(PatternDatabase.toSolved(3, 'htm', { kind: 'co' }).size).toBe(2187);
    expect(PatternDatabase.toSolved(3, 'htm', { kind: 'eo' }).size).toBe(2048);
    expect(PatternDatabase.toSolved(3, 'htm', { kind: 'ep', cubies: [8, 9, 10, 11] }).size).toBe(11880);
  });

  it('measures from any origin: distance 0 there, and symmetric with the distance to solved', () => {
    const start = CubeState.solved(3).applyAll(generateScramble(3, 6, 9).map((m) => parseMove(m)!));
    const fromStart = PatternDatabase.from(start, 'htm', { kind: 'co' });
    expect(fromStart.distance(start)).toBe(0);
    expect(fromStart.distance(CubeState.solved(3))).toBe(
      PatternDatabase.toSolved(3, 'htm', { kind: 'co' }).distance(start),
    );
  });
});
