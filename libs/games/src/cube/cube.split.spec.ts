import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';

import { cubeLowerBound } from './cube.lower-bound.js';
import {
  type CubeInstance,
  CubeState,
  type Metric,
  type Move,
  parseMove,
  solverMoves,
} from './cube.model.js';
import { parseCubeInstance } from './cube.parse.js';
import { PocketCubeDistances } from './cube.reference.js';
import { joinCubePlan, splitCube } from './cube.split.js';
import { cubePlanLength, verifyCube } from './cube.verify.js';

const stateOf = (instance: CubeInstance): CubeState =>
  CubeState.fromFacelets(instance.size, instance.facelets);
const keyOf = (instance: CubeInstance): string => instance.facelets;

/** Every shortest plan of a 2x2 position, as solver moves, by the exact distance table. */
function shortestPlans(table: PocketCubeDistances, state: CubeState): Move[][] {
  const d = table.distance(state);
  if (d === 0) return [[]];
  return solverMoves(2, table.metric).flatMap((m) => {
    const next = state.apply(m);
    return table.distance(next) === d - 1 ? shortestPlans(table, next).map((rest) => [m, ...rest]) : [];
  });
}

describe(splitCube.name, () => {
  it.each<Metric>(['htm', 'qtm'])(
    'covers every shortest 2x2 plan (%s): the first moves of each reach a cube, and joined the plan verifies',
    (metric) => {
      const table = PocketCubeDistances.of(metric);
      const rng = xoroshiro128plus(7);
      for (let i = 0; i < 6; i++) {
        const indices = table.indicesAt(metric === 'htm' ? 5 + (i % 2) : 6 + (i % 3));
        const start = table.stateAt(indices[unsafeUniformIntDistribution(0, indices.length - 1, rng)]!);
        const instance = parseCubeInstance({ size: 2, metric, facelets: start.toFacelets() });
        const best = table.distance(start);
        for (const depth of [1, 2, 3]) {
          const split = splitCube(instance, depth, best)!;
          expect(split.plan).toBeUndefined();
          const cubes = new Map(split.cubes.map((c) => [keyOf(c.instance), c]));
          // One cube per position, each `depth` moves from the start and no fewer.
          expect(cubes.size).toBe(split.cubes.length);
          for (const cube of split.cubes) {
            expect(cube.depth).toBe(depth);
            expect(cubePlanLength(cube.prefix)).toBe(depth);
            const moves = cube.prefix.moves.map((name) => parseMove(name)!);
            expect(start.applyAll(moves).equals(stateOf(cube.instance))).toBe(true);
          }
          for (const plan of shortestPlans(table, start)) {
            const reached = start.applyAll(plan.slice(0, depth)).toFacelets();
            const cube = cubes.get(reached);
            expect(cube, `${plan.map((m) => m.face + m.turns).join(' ')} at depth ${depth}`).toBeDefined();
            const rest = {
              moves: plan.slice(depth).map((m) => `${m.face}${['', '', '2', "'"][m.turns]}`),
              metric,
            };
            const joined = joinCubePlan(instance, cube!.prefix, rest);
            expect(verifyCube(instance, joined, best)).toEqual({ ok: true, cost: best });
          }
          // The optimum through the cubes is the optimum: none has a plan within the horizon below.
          const through = Math.min(...split.cubes.map((c) => c.depth + table.distance(stateOf(c.instance))));
          expect(through).toBe(best);
        }
      }
    },
  );

  it('makes one cube per position: 18 and 243 positions one and two moves from a 3x3 (htm), 12 and 114 (qtm)', () => {
    const scramble = "R U2 F' L D B2";
    const counts = (metric: Metric, depth: number): number =>
      splitCube(parseCubeInstance({ size: 3, scramble, metric }), depth, 12)!.cubes.length;
    expect([counts('htm', 1), counts('htm', 2)]).toEqual([18, 243]);
    expect([counts('qtm', 1), counts('qtm', 2)]).toEqual([12, 114]);
  });

  it('ends with a plan when one is shorter than the depth, and keeps the scramble the position came from', () => {
    const instance = parseCubeInstance({ size: 3, scramble: "R U'" });
    const split = splitCube(instance, 3, 5)!;
    expect(split.cubes).toEqual([]);
    expect(split.plan).toEqual({ moves: ['U', "R'"], metric: 'htm' });
    expect(verifyCube(instance, split.plan!, 2).ok).toBe(true);
    const [cube] = splitCube(instance, 1, 5)!.cubes;
    expect(cube!.instance.scramble).toEqual(['R', "U'", ...cube!.prefix.moves]);
    expect(cubeLowerBound(cube!.instance)).toBeGreaterThanOrEqual(1);
  });

  it('joins a prefix and a plan into one plan, turns of a face merged', () => {
    const instance = parseCubeInstance({ size: 3, scramble: "R' U' U'", metric: 'qtm' });
    const joined = joinCubePlan(
      instance,
      { moves: ['U'], metric: 'qtm' },
      { moves: ['U', 'R'], metric: 'qtm' },
    );
    expect(joined).toEqual({ moves: ['U2', 'R'], metric: 'qtm' });
    expect(verifyCube(instance, joined, 3)).toEqual({ ok: true, cost: 3 });
  });
});
