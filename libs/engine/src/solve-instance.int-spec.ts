import { describe, expect, it } from 'vitest';

import { gameById, InputError, MAX_HORIZON } from '@satfarm/games';

import { QUICK_PLAN, type SolveEvent, solveInstance, solveParsed } from './solve-instance.js';
import { GIVEN_PLAN } from './solve-options.js';
import { type PigeonLadder, pigeonLadderGame, type PigeonPlan } from './testing/pigeon-ladder.game.js';

/** The pigeon ladder with a quick plan: `holes` as given (one pigeon per hole by default). */
function withQuickPlan(holes?: (pigeons: number) => number[]) {
  return {
    ...pigeonLadderGame,
    quickPlan: (i: PigeonLadder) => ({
      holes: holes?.(i.pigeons) ?? Array.from({ length: i.pigeons }, (_, p) => p),
    }),
  };
}

/**
 * The pigeon ladder reading plans (`{ holes }`) and counting a plan as long as the holes it needs
 * (its highest hole + 1), so that plans of one instance can differ in length.
 */
function withPlanReader(quickHoles?: (pigeons: number) => number[]) {
  return {
    ...pigeonLadderGame,
    ...(quickHoles === undefined
      ? {}
      : { quickPlan: (i: PigeonLadder) => ({ holes: quickHoles(i.pigeons) }) }),
    parsePlan: (input: unknown): PigeonPlan => {
      const holes = (input as { holes?: unknown } | null)?.holes;
      if (!Array.isArray(holes) || !holes.every((h) => Number.isInteger(h))) {
        throw new InputError('plan.holes', 'expected a list of hole numbers');
      }
      return { holes: holes as number[] };
    },
    planLength: (plan: PigeonPlan) => Math.max(0, ...plan.holes) + 1,
  };
}

/** A Hex-a-Hop map whose laser shot needs `refine` at 2 moves (see the test of solver calls). */
const LASER_MAP = {
  map: ['.....', '.o.L.', '.gLL.', '.LIo.', '.....'],
  start: [3, 3],
  items: [[1, 3, 'jump']],
};

const inOrder = (pigeons: number): number[] => Array.from({ length: pigeons }, (_, p) => p);

describe(solveParsed.name, () => {
  describe("with the caller's plan", () => {
    it('verifies it, starts from it, and with bracket proves it optimal by the one UNSAT below it', async () => {
      const report = await solveParsed(
        withPlanReader(),
        { pigeons: 6 },
        { parallelism: 1, policy: 'bracket', plan: { holes: [5, 4, 3, 2, 1, 0] } },
      );
      expect(report).toMatchObject({ status: 'optimal', horizon: 6, bounds: { lower: 6, upper: 6 } });
      expect(report.solution).toEqual({ holes: [5, 4, 3, 2, 1, 0] });
      expect(report.horizons.map(({ t, result, by }) => ({ t, result, by }))).toEqual([
        { t: 5, result: 'unsat', by: undefined },
        { t: 6, result: 'sat', by: GIVEN_PLAN },
      ]);
    });

    it('finds the shorter plans below a long one', async () => {
      const report = await solveParsed(
        withPlanReader(),
        { pigeons: 4 },
        { parallelism: 1, plan: { holes: [0, 1, 2, 7] } },
      );
      expect(report).toMatchObject({ status: 'optimal', horizon: 4 });
      expect(report.horizons.find((h) => h.by === GIVEN_PLAN)).toMatchObject({ t: 8, result: 'sat' });
      expect(report.horizons.filter((h) => h.by === undefined).every((h) => h.t < 8)).toBe(true);
    });

    it('takes the shorter of it and the quick plan', async () => {
      const quickShorter = await solveParsed(
        withPlanReader(inOrder),
        { pigeons: 4 },
        { parallelism: 1, policy: 'bracket', plan: { holes: [0, 1, 2, 6] } },
      );
      expect(quickShorter.horizons.filter((h) => h.by !== undefined)).toEqual([
        expect.objectContaining({ t: 4, by: QUICK_PLAN }),
      ]);
      const givenShorter = await solveParsed(
        withPlanReader((n) => [...inOrder(n - 1), n + 2]),
        { pigeons: 4 },
        { parallelism: 1, policy: 'bracket', plan: { holes: [3, 2, 1, 0] } },
      );
      expect(givenShorter.horizons.filter((h) => h.by !== undefined)).toEqual([
        expect.objectContaining({ t: 4, by: GIVEN_PLAN }),
      ]);
      for (const r of [quickShorter, givenShorter])
        expect(r).toMatchObject({ status: 'optimal', horizon: 4 });
    });

    it("takes an earlier report's solution, and names what is wrong with a report", async () => {
      const earlier = await solveParsed(withPlanReader(), { pigeons: 5 }, { parallelism: 1 });
      const again = await solveParsed(
        withPlanReader(),
        { pigeons: 5 },
        { parallelism: 1, policy: 'bracket', plan: earlier },
      );
      expect(again.solution).toEqual(earlier.solution);
      expect(again.horizons.map((h) => h.t)).toEqual([4, 5]);
      await expect(
        solveParsed(withPlanReader(), { pigeons: 5 }, { plan: { ...earlier, game: 'cube' } }),
      ).rejects.toThrow(/^plan\.game: the report is of "cube", not of cnf$/);
      await expect(
        solveParsed(
          withPlanReader(),
          { pigeons: 5 },
          { plan: { ...earlier, status: 'unknown', solution: undefined } },
        ),
      ).rejects.toThrow(/^plan\.solution: the report \(status "unknown"\) has no plan$/);
    });

    it('refuses, before any solver runs, a plan that is malformed, does not verify, or is too long', async () => {
      const cases: [unknown, RegExp][] = [
        [[0, 1, 2], /^plan\.holes: expected a list/],
        [{ holes: [0, 0, 1] }, /^plan: does not solve the instance: two pigeons share a hole$/],
        [{ holes: [0, 1] }, /^plan: does not solve the instance: wrong number of pigeons$/],
        [{ holes: [0, 1, 9] }, /^plan: takes 10 moves, more than the largest horizon 7$/],
      ];
      for (const [plan, message] of cases) {
        const events: SolveEvent[] = [];
        const solving = solveParsed(
          withPlanReader(),
          { pigeons: 3 },
          { plan, onEvent: (e) => events.push(e) },
        );
        await expect(solving).rejects.toThrow(InputError);
        await expect(solving).rejects.toThrow(message);
        expect(events).toEqual([]);
      }
    });

    it('is refused by a game that reads no plans, and by puzzles', async () => {
      await expect(
        solveParsed(pigeonLadderGame, { pigeons: 3 }, { plan: { holes: [0, 1, 2] } }),
      ).rejects.toMatchObject({
        field: 'plan',
        reason: 'game cnf does not take a plan',
      });
      await expect(
        solveInstance('towers', '5://3/3///3/1//////2/2///4//,k3m', { plan: ['1'] }),
      ).rejects.toThrow(/^plan: applies to planning games with a horizon sweep, not to towers$/);
    });

    it('finds the optimum of a cube scramble below a longer plan that solves it', async () => {
      const report = await solveInstance(
        'cube',
        { size: 3, scramble: 'R U' },
        { parallelism: 1, plan: "U' R' U U'" },
      );
      expect(report).toMatchObject({ status: 'optimal', horizon: 2, solution: { moves: ["U'", "R'"] } });
      expect(report.horizons.find((h) => h.by === GIVEN_PLAN)).toMatchObject({ t: 4, result: 'sat' });
    });
  });

  describe("with the game's quick plan", () => {
    it('starts from it and, with bracket, proves it optimal by the one UNSAT below it', async () => {
      const report = await solveParsed(
        withQuickPlan(),
        { pigeons: 6 },
        { parallelism: 1, policy: 'bracket' },
      );
      expect(report).toMatchObject({
        status: 'optimal',
        horizon: 6,
        bounds: { lower: 6, upper: 6 },
        verified: true,
      });
      expect(report.solution).toEqual({ holes: [0, 1, 2, 3, 4, 5] });
      expect(report.horizons.map(({ t, result, by }) => ({ t, result, by }))).toEqual([
        { t: 5, result: 'unsat', by: undefined },
        { t: 6, result: 'sat', by: QUICK_PLAN },
      ]);
    });

    it('is left out with quickPlan false, or when it is longer than the largest horizon', async () => {
      const off = await solveParsed(withQuickPlan(), { pigeons: 5 }, { parallelism: 1, quickPlan: false });
      expect(off.status).toBe('optimal');
      const long = await solveParsed(withQuickPlan(), { pigeons: 6 }, { parallelism: 1, maxHorizon: 5 });
      expect(long.status).toBe('unsatisfiable');
      expect(long.solution).toBeUndefined();
      for (const report of [off, long]) expect(report.horizons.some((h) => h.by !== undefined)).toBe(false);
    });

    it('fails the solve, before any solver runs, when its plan does not verify', async () => {
      const events: SolveEvent[] = [];
      await expect(
        solveParsed(
          withQuickPlan((n) => Array.from({ length: n }, () => 0)),
          { pigeons: 4 },
          {
            parallelism: 1,
            onEvent: (e) => events.push(e),
          },
        ),
      ).rejects.toThrow(/quick plan does not verify: two pigeons share a hole/);
      expect(events.filter((e) => e.type === 'horizon')).toEqual([]);
    });

    it('counts its search time in the timeout', async () => {
      const slowQuickPlan = {
        ...pigeonLadderGame,
        quickPlan: (i: PigeonLadder) => {
          const until = performance.now() + 1200;
          while (performance.now() < until);
          return { holes: inOrder(i.pigeons) };
        },
      };
      // 12 pigeons: the UNSAT proofs below the plan take far longer than the timeout.
      const report = await solveParsed(
        slowQuickPlan,
        { pigeons: 12, lowerBound: 12 },
        { parallelism: 1, timeoutSec: 1, policy: 'bracket' },
      );
      expect(report).toMatchObject({ status: 'satisfiable', horizon: 12 });
      // Without the search's 1.2 s counted, the sweep would have run a second more.
      expect(report.stats.wallMs).toBeLessThan(1900);
    });

    it("gives a Hex-a-Hop level its beam search's plan", async () => {
      const report = await solveInstance('hexahop', { level: 'Hive' }, { parallelism: 1 });
      expect(report).toMatchObject({ status: 'optimal', horizon: 24 });
      expect(report.horizons.find((h) => h.by === QUICK_PLAN)).toMatchObject({ result: 'sat' });
      expect(report.horizons.find((h) => h.t === 23)?.result).toBe('unsat');
    });
  });

  it('finds the optimum of a planning game and backs it with the UNSAT result just below', async () => {
    const events: SolveEvent[] = [];
    const report = await solveParsed(
      pigeonLadderGame,
      { pigeons: 6 },
      { parallelism: 2, onEvent: (e) => events.push(e) },
    );
    expect(report.status).toBe('optimal');
    expect(report.horizon).toBe(6);
    expect(report.bounds).toEqual({ lower: 6, upper: 6 });
    expect(report.verified).toBe(true);
    expect(report.horizons.find((h) => h.t === 5)?.result).toBe('unsat');
    // The plan comes from horizon 6, or from a higher one whose plan finishes by step 6 (then the
    // upper bound drops to 6 and a still-running horizon 6 is cancelled as decided).
    expect(report.horizons.some((h) => h.t >= 6 && h.result === 'sat')).toBe(true);
    expect(report.horizons.some((h) => h.t < 6 && h.result === 'sat')).toBe(false);
    expect(events.some((e) => e.type === 'bounds')).toBe(true);
  });

  it("names on each solved horizon's line the formula its solver got", async () => {
    const instance = { pigeons: 5 };
    const report = await solveParsed(pigeonLadderGame, instance, { parallelism: 1, quickPlan: false });
    expect(report.status).toBe('optimal');
    const ran = report.horizons.filter((h) => h.result === 'sat' || h.result === 'unsat');
    expect(ran.length).toBeGreaterThan(1);
    for (const h of ran) {
      const formula = pigeonLadderGame.encode(instance, h.t).formula;
      expect(h).toMatchObject({ vars: formula.numVars, clauses: formula.numClauses });
    }
    // Different horizons, different formulas: the lines are not one figure repeated.
    expect(new Set(ran.map((h) => h.clauses)).size).toBe(ran.length);
  });

  it('reports the solver calls of a horizon whose lazy encoding asked for refinement', async () => {
    // A Hex-a-Hop map where, at 2 moves, a model exploding the laser the game's order spares
    // would win: refine cuts it, and 2 is UNSAT only after more than one call.
    const report = await solveInstance('hexahop', LASER_MAP, { parallelism: 1 });
    expect(report.status).toBe('optimal');
    expect(report.horizon).toBe(3);
    const below = report.horizons.find((h) => h.t === 2);
    expect(below?.result).toBe('unsat');
    expect(below?.rounds).toBeGreaterThan(1);
    // Its line counts the clauses refine added to the formula first encoded.
    expect(below?.clauses).toBeGreaterThan(
      gameById('hexahop').encode(gameById('hexahop').parse(LASER_MAP), 2).formula.numClauses,
    );
    expect(report.horizons.filter((h) => h.t < 2).every((h) => h.rounds === undefined)).toBe(true);
  });

  it('solves the encoding a model asks for by leaving its window, and reports no proof where that one proves none', async () => {
    // Two Hex-a-Hop spinners side by side at the map's top edge: the formula of one move is
    // satisfied only by turning the green off the map, which the game does not count as a win.
    // The engine solves the encoding without such runs instead: UNSAT there is no proof.
    const report = await solveInstance(
      'hexahop',
      { map: ['gSS', '.o.'], start: [1, 1] },
      { parallelism: 1, maxHorizon: 1 },
    );
    const one = report.horizons.find((h) => h.t === 1);
    expect(one).toMatchObject({ result: 'unknown', rounds: 2 });
    expect(one?.reason).toMatch(/no plan keeps every green and blue tile on the map/);
    expect(report.status).toBe('unknown');
    expect(report.solution).toBeUndefined();
  });

  it('runs the lowest open horizon with the UNSAT preset and the ones above with the SAT preset, for the cube', async () => {
    /** Each horizon's preset, and the lower bound when it started (from the sweep's own events). */
    const presetsOf = async (presets?: boolean) => {
      const seen: { t: number; preset: string | undefined; lowerAtStart: number }[] = [];
      const lowerAtStart = new Map<number, number>();
      let lower = 0;
      const report = await solveInstance(
        'cube',
        { size: 2, scramble: "R U2 F' R2 U F2" },
        {
          parallelism: 2,
          presets,
          onEvent: (e) => {
            if (e.type === 'sweep' || e.type === 'bounds') lower = e.lower;
            if (e.type === 'horizon' && e.state === 'running') lowerAtStart.set(e.t, lower);
            if (e.type === 'stats')
              seen.push({ t: e.t, preset: e.stats.preset, lowerAtStart: lowerAtStart.get(e.t)! });
          },
        },
      );
      expect(report.status).toBe('optimal');
      return seen;
    };
    // Which horizon is the lowest open one when each starts depends on which answers came first;
    // the preset must follow it either way.
    const byDefault = await presetsOf();
    for (const { t, preset, lowerAtStart } of byDefault) {
      expect(preset, `horizon ${t}, started with lower ${lowerAtStart}`).toBe(
        t <= lowerAtStart ? 'unsat' : 'sat',
      );
    }
    // The first two horizons start together: the lowest open one, and one above it.
    expect(byDefault.map((h) => h.preset)).toEqual(expect.arrayContaining(['unsat', 'sat']));
    const off = await presetsOf(false);
    expect(off.every((h) => h.preset === undefined)).toBe(true);
  });

  it("sweeps with the game's default policy unless the caller names one", async () => {
    const policyOf = async (game: typeof pigeonLadderGame, policy?: string): Promise<string | undefined> => {
      let used: string | undefined;
      const report = await solveParsed(
        game,
        { pigeons: 4 },
        {
          parallelism: 1,
          policy,
          onEvent: (e) => {
            if (e.type === 'sweep') used = e.policy;
          },
        },
      );
      expect(report).toMatchObject({ status: 'optimal', horizon: 4 });
      return used;
    };
    expect(await policyOf(pigeonLadderGame)).toBe('consecutive');
    const leaping = { ...pigeonLadderGame, defaultPolicy: 'leap' };
    expect(await policyOf(leaping)).toBe('leap');
    expect(await policyOf(leaping, 'probe')).toBe('probe');
    await expect(
      solveParsed({ ...pigeonLadderGame, defaultPolicy: 'nope' }, { pigeons: 4 }, {}),
    ).rejects.toThrow(/policy/);
  });

  it("solves with the game's default solver unless the caller names one", async () => {
    const solverOf = async (game: typeof pigeonLadderGame, solver?: 'kissat' | 'cadical' | 'minisat') =>
      (
        await solveParsed(
          game,
          { pigeons: 4 },
          { parallelism: 1, ...(solver === undefined ? {} : { solver }) },
        )
      ).stats.solver;
    expect(await solverOf(pigeonLadderGame)).toMatch(/^kissat/);
    const onCadical = { ...pigeonLadderGame, defaultSolver: 'cadical' as const };
    expect(await solverOf(onCadical)).toMatch(/^cadical/);
    expect(await solverOf(onCadical, 'minisat')).toMatch(/^minisat/);
  });

  it('backs an optimum equal to a tight lower bound with the UNSAT result just below it', async () => {
    const report = await solveParsed(pigeonLadderGame, { pigeons: 5, lowerBound: 5 }, { parallelism: 2 });
    expect(report).toMatchObject({ status: 'optimal', horizon: 5 });
    expect(report.horizons.find((h) => h.t === 4)?.result).toBe('unsat');
    expect(report.horizons.some((h) => h.t < 4)).toBe(false);
  });

  it('starts at minHorizon and backs the optimum there with the UNSAT result just below, running nothing lower', async () => {
    const events: SolveEvent[] = [];
    const report = await solveParsed(
      pigeonLadderGame,
      { pigeons: 7 },
      { parallelism: 2, policy: 'consecutive', minHorizon: 7, onEvent: (e) => events.push(e) },
    );
    expect(report).toMatchObject({ status: 'optimal', horizon: 7, bounds: { lower: 7, upper: 7 } });
    expect(report.horizons.find((h) => h.t === 6)?.result).toBe('unsat');
    expect(report.horizons.some((h) => h.t < 6)).toBe(false);
    expect(events.find((e) => e.type === 'sweep')).toMatchObject({ lower: 0, start: 6 });
  });

  it('is not misled by a minHorizon above the optimum: the horizons under it open again', async () => {
    const report = await solveParsed(
      pigeonLadderGame,
      { pigeons: 5 },
      { parallelism: 2, policy: 'consecutive', minHorizon: 8 },
    );
    expect(report).toMatchObject({ status: 'optimal', horizon: 5, bounds: { lower: 5, upper: 5 } });
    expect(report.horizons.find((h) => h.t === 4)?.result).toBe('unsat');
    expect(report.horizons.some((h) => h.t >= 7 && h.result === 'sat')).toBe(true);
  });

  it('reports only the proven lower bound when a sweep from minHorizon times out', async () => {
    // 12 pigeons: 11 holes (UNSAT) takes far longer than the timeout.
    const report = await solveParsed(
      pigeonLadderGame,
      { pigeons: 12 },
      { parallelism: 1, timeoutSec: 1, policy: 'consecutive', minHorizon: 12 },
    );
    expect(report.status).toBe('unknown');
    expect(report.bounds).toEqual({ lower: 0 });
    expect(report.horizons.map((h) => h.t)).toEqual([11]);
  });

  it('ends a horizon whose formula is still being built at the timeout, without waiting for the build', async () => {
    // A 100x100 Snake: its first horizon (197) is a formula of about 3 million clauses, seconds
    // of building; the timers of the sweep cannot fire meanwhile.
    const started = performance.now();
    const report = await solveInstance(
      'snake',
      { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] },
      { parallelism: 1, timeoutSec: 0.5, quickPlan: false },
    );
    expect(report.status).toBe('unknown');
    // The build stopped at the deadline and the sweep, past it, opened no other horizon; no
    // formula went to a solver, so the line names none.
    expect(report.horizons).toHaveLength(1);
    expect(report.horizons[0]).toMatchObject({ t: 197, result: 'unknown', reason: 'timeout' });
    expect(report.horizons[0]).not.toHaveProperty('vars');
    expect(performance.now() - started).toBeLessThan(5000);
  });

  it('names minHorizon when it is out of range or given to a game without horizons', async () => {
    await expect(
      solveParsed(pigeonLadderGame, { pigeons: 3 }, { minHorizon: 9, maxHorizon: 5 }),
    ).rejects.toMatchObject({ field: 'minHorizon' });
    await expect(solveParsed(pigeonLadderGame, { pigeons: 3 }, { minHorizon: -1 })).rejects.toMatchObject({
      field: 'minHorizon',
    });
    await expect(solveInstance('cnf', 'p cnf 1 1\n1 0\n', { minHorizon: 3 })).rejects.toMatchObject({
      field: 'minHorizon',
    });
  });

  it('refuses a horizon above MAX_HORIZON before anything is encoded, naming the option', async () => {
    const events: SolveEvent[] = [];
    const onEvent = (e: SolveEvent): number => events.push(e);
    await expect(
      solveParsed(pigeonLadderGame, { pigeons: 3 }, { maxHorizon: MAX_HORIZON + 1, onEvent }),
    ).rejects.toMatchObject({ field: 'maxHorizon', reason: `must be at most ${MAX_HORIZON}, got 100001` });
    await expect(
      solveParsed(pigeonLadderGame, { pigeons: 3 }, { minHorizon: 1e12, maxHorizon: 1e12, onEvent }),
    ).rejects.toMatchObject({ field: 'maxHorizon' });
    expect(events).toEqual([]);
    const report = await solveParsed(pigeonLadderGame, { pigeons: 3 }, { maxHorizon: MAX_HORIZON });
    expect(report.status).toBe('optimal');
  });

  it.each([
    ['maxHorizon', { maxHorizon: 3 }],
    ['policy', { policy: 'consecutive' }],
    ['patienceSec', { patienceSec: 1 }],
    ['presets', { presets: false }],
    ['quickPlan', { quickPlan: false }],
  ] as const)('refuses %s for a single-solve game, before any solver runs', async (field, options) => {
    const events: SolveEvent[] = [];
    await expect(
      solveInstance('cnf', 'p cnf 1 1\n1 0\n', { ...options, onEvent: (e) => events.push(e) }),
    ).rejects.toMatchObject({
      field,
      reason: 'applies to planning games with a horizon sweep, not to cnf',
    });
    expect(events).toEqual([]);
  });

  it('refuses a patience under a policy without patient probes, and takes it under one with them', async () => {
    for (const policy of ['consecutive', 'leap']) {
      await expect(
        solveParsed(pigeonLadderGame, { pigeons: 3 }, { policy, patienceSec: 1 }),
      ).rejects.toMatchObject({
        field: 'patienceSec',
        reason: `applies to the policies with patient probes (probe, bracket), not to ${policy}`,
      });
    }
    const report = await solveParsed(pigeonLadderGame, { pigeons: 3 }, { policy: 'probe', patienceSec: 1 });
    expect(report.status).toBe('optimal');
  });

  it('reports unsatisfiable when no plan exists within the horizon cap', async () => {
    const report = await solveParsed(pigeonLadderGame, { pigeons: 7 }, { parallelism: 2, maxHorizon: 5 });
    expect(report.status).toBe('unsatisfiable');
    expect(report.solution).toBeUndefined();
  });

  it('stops on timeout with the bounds reached and leaves no solver running', async () => {
    // 13 pigeons: the UNSAT proofs at 11 and 12 holes take far longer than the timeout.
    const report = await solveParsed(
      pigeonLadderGame,
      { pigeons: 13 },
      { parallelism: 2, timeoutSec: 1.5, maxHorizon: 13, policy: 'consecutive' },
    );
    expect(['unknown', 'satisfiable']).toContain(report.status);
    expect(report.bounds.lower).toBeLessThan(13);
  });

  it('rejects uniqueness checks for planning games as bad input', async () => {
    await expect(solveParsed(pigeonLadderGame, { pigeons: 3 }, { unique: true })).rejects.toBeInstanceOf(
      InputError,
    );
  });
});

describe(solveInstance.name, () => {
  it('names the field of an unknown game', async () => {
    await expect(solveInstance('chess', '')).rejects.toMatchObject({ field: 'game' });
  });

  it('reports a single solve stopped before its solver started as unknown, not as an error', async () => {
    // The CLI's SIGINT can land while the solver's version is read, before the solve takes its slot.
    const signal = AbortSignal.abort(new Error('interrupted'));
    const report = await solveInstance('cnf', 'p cnf 2 2\n1 2 0\n-1 0\n', { signal });
    expect(report).toMatchObject({ status: 'unknown', verified: false, bounds: { lower: 0 } });
    expect(report.horizons).toEqual([{ t: 0, result: 'cancelled', ms: 0 }]);
  });
});
