import { describe, expect, it } from 'vitest';

import { cubeGame, parseCubeInstance, verifyCube } from '@satfarm/games';
import { createSolver } from '@satfarm/solver';

import { SlotPool } from './slot-pool.js';
import { type HorizonCube, joinCube, runHorizonSplit, solveCube, splitHorizon } from './split-horizon.js';

// The small pattern databases bound the cubes here: with the 3x3 tables on disk the bound alone
// refutes horizon 6, and no cube would need a solver.
process.env['SATFARM_PDB_DIR'] = 'off';

/** Seven moves, seven its fewest (htm): at 6 some cubes need a solver, the bound refutes the others. */
const instance = parseCubeInstance({ size: 3, scramble: "R U F D2 L B R'" });
const kissat = createSolver('kissat');

describe(runHorizonSplit.name, () => {
  it('proves the horizon under the optimum by refuting every cube, some by the bound and some by the solver', async () => {
    const progress: number[] = [];
    const r = await runHorizonSplit(cubeGame, instance, { t: 6 }, kissat, {
      slots: new SlotPool(2),
      onProgress: (p) => progress.push(p.refuted),
    });
    expect(r?.result).toBe('unsat');
    const split = r!.stats.split!;
    expect(split).toMatchObject({ depth: 1, cubes: 18, refuted: 18, unanswered: 0 });
    expect(split.bound).toBeGreaterThan(0);
    expect(split.bound).toBeLessThan(18);
    expect(split.answeredBy).toBeUndefined();
    // First the bound's refutations, then one more for each cube a solver refuted.
    expect(progress).toEqual(Array.from({ length: 19 - split.bound }, (_, i) => split.bound + i));
    expect(r!.stats.clauses).toBeGreaterThan(0);
  });

  it("answers the optimum with a cube's plan joined to its prefix, verified from the start", async () => {
    const r = await runHorizonSplit(cubeGame, instance, { t: 7 }, kissat, { slots: new SlotPool(2) });
    expect(r?.result).toBe('sat');
    if (r?.result !== 'sat') return;
    expect(verifyCube(instance, r.plan, 7)).toEqual({ ok: true, cost: 7 });
    expect(r.planLength).toBe(7);
    const { answeredBy } = r.stats.split!;
    expect(answeredBy).toBeDefined();
    // The plan starts with the answering cube's prefix (one move: depth 1).
    expect(r.plan.moves[0]).toBe((answeredBy!.prefix as { moves: string[] }).moves[0]);
  });
});

describe('a cube as data', () => {
  it('is solved from its JSON alone, and its plan joins into a plan of the original instance', async () => {
    const split = splitHorizon(cubeGame, instance, 7, { minCubes: 4 })!;
    const results = [];
    for (const cube of split.cubes) {
      const copy = JSON.parse(JSON.stringify(cube)) as HorizonCube<typeof instance, { moves: string[] }>;
      results.push({ cube: copy, r: await solveCube(cubeGame, copy, {}, kissat) });
    }
    const byBound = results.filter(({ r }) => 'bound' in r);
    for (const { cube, r } of byBound) {
      expect(r.result).toBe('unsat');
      expect(cube.lowerBound).toBeGreaterThan(cube.t);
      expect(r.stats.solverMs).toBe(0);
    }
    const sat = results.filter(({ r }) => r.result === 'sat');
    expect(sat.length).toBeGreaterThan(0);
    for (const { cube, r } of sat) {
      if (r.result !== 'sat') continue;
      const joined = joinCube(cubeGame, instance, cube, r.plan);
      expect(verifyCube(instance, joined.plan, 7)).toEqual({ ok: true, cost: joined.planLength });
    }
  });

  it('refuses a joined plan that the simulator rejects', () => {
    const [cube] = splitHorizon(cubeGame, instance, 7, { minCubes: 1 })!.cubes;
    expect(() => joinCube(cubeGame, instance, cube!, { moves: ['U'], metric: 'htm' })).toThrow(
      /fails verification: cube 0's plan joined: the moves do not solve the cube/,
    );
  });
});
