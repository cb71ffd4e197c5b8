import { type EncodingChoices, gameById, type GameDefinition, InputError, MAX_HORIZON } from '@satfarm/games';
import { createSolver, type SatSolver, type SolverName, type SolverProgress } from '@satfarm/solver';
import {
  HorizonSweep,
  type HorizonOutcome,
  type KnownPlan,
  horizonPolicy,
  horizonPolicyNames,
  hintedStart,
  horizonPreset,
  type HorizonStartBounds,
  patienceMsOf,
  type SweepEvent,
} from '@satfarm/sweep';

import { type HorizonStats } from './horizon-solver.js';
import { runHorizon } from './run-horizon.js';
import { checkOptionScope } from './option-scope.js';
import { SlotPool } from './slot-pool.js';
import {
  formulaSizeOf,
  type HorizonLine,
  type SolveReport,
  type SolveStatus,
  solverUsageOf,
} from './solve-report.js';

/**
 * What a caller may ask of one solve. The sweep's options (`SWEEP_ONLY_OPTIONS`) are refused for a
 * single-solve game and `unique` for a planning game (`checkOptionScope`), as bad input.
 */
export interface SolveOptions {
  /** The largest horizon a sweep tries; default: the game's `defaultMaxHorizon`. */
  maxHorizon?: number;
  /**
   * Where the caller expects the shortest plan, at or above (e.g. a bound an earlier run proved).
   * The sweep starts there and also runs the horizon below it, so an optimum it reports is still
   * backed by an UNSAT answer; the value is checked, never trusted: a plan at or below
   * `minHorizon - 1` reopens the horizons under it. Planning games only.
   */
  minHorizon?: number;
  /** Horizons in flight at once (and local solver slots when no pool is given). */
  parallelism?: number;
  solver?: SolverName;
  timeoutSec?: number;
  unique?: boolean;
  /** Horizon-choice policy of the sweep, by name; default: the game's `defaultPolicy`. */
  policy?: string;
  /**
   * Seconds a patient probe of the policy (`probe`'s and `bracket`'s rungs and descent) may run
   * before it gives way to another horizon; a probe that gave way gets twice its time when it runs
   * again. Only the policies with patient probes take it. Default: no limit.
   */
  patienceSec?: number;
  /**
   * Solver presets by the bounds (`horizonPreset`: UNSAT preset for the lowest open horizon, SAT
   * preset above); default: the game's `solverPresets`.
   */
  presets?: boolean;
  /**
   * Planning games: start the sweep from the game's quick plan (`GameDefinition.quickPlan`), when it
   * has one and it verifies (default true).
   */
  quickPlan?: boolean;
  /**
   * Planning games: a plan the caller already has (`GameDefinition.parsePlan`'s forms, or a whole
   * earlier report, whose `solution` is taken). It is verified by the simulator before any solver
   * runs, and the sweep starts from it as its upper bound, only looking below it (the shorter of it
   * and the quick plan, when both are there).
   */
  plan?: unknown;
  /**
   * Encoding choices for the game's `encode` (`EncodeOptions.variant`), checked by the game's
   * `checkEncoding` before anything runs; a game without choices refuses any. Default: none.
   */
  encoding?: EncodingChoices;
  /**
   * The most bytes one horizon's formula may take (4 a literal): a larger one ends its horizon
   * `unknown`, reason `formula-limit`, without a solver run. Default: none
   * (`defaultMaxFormulaBytes` is what the CLI and the farm's workers use).
   */
  maxFormulaBytes?: number;
  /** Shared local slots, when several solves run in one process. */
  slots?: SlotPool;
  signal?: AbortSignal;
  onEvent?: (event: SolveEvent) => void;
}

/** Progress of a solve, for terminals and websockets. */
export type SolveEvent =
  /** `start`: where the window opens, above `lower`, from `minHorizon`. */
  | { type: 'sweep'; lower: number; max: number; policy: string; start?: number }
  | SweepEvent
  | { type: 'progress'; t: number; progress: SolverProgress }
  | { type: 'stats'; t: number; stats: HorizonStats };

/**
 * Solves one instance in this process: parse, then a horizon sweep (planning games) or a single
 * solve (puzzles, raw CNF), every answer verified by the game's simulator. Throws `InputError`
 * for bad input before any solver runs.
 */
export async function solveInstance(
  gameName: string,
  input: unknown,
  options: SolveOptions = {},
): Promise<SolveReport> {
  const game = gameById(gameName);
  return solveParsed(game, game.parse(input), options);
}

/**
 * Where a sweep starts: one below the game's admissible lower bound, so that a reported optimum
 * is always backed by the UNSAT result of the horizon below it, even when the bound is tight
 * (the bound is code; the UNSAT result is a proof).
 */
export function sweepLowerBound<I>(game: GameDefinition<I, unknown>, instance: I): number {
  return Math.max(0, game.lowerBound(instance) - 1);
}

/** Solves an instance already parsed by its game (see `solveInstance`). */
export async function solveParsed<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  options: SolveOptions = {},
): Promise<SolveReport> {
  checkEncoding(game, options.encoding);
  checkOptionScope(game, options);
  const solver = createSolver(options.solver ?? game.defaultSolver ?? 'kissat');
  const started = performance.now();
  const report = game.planning
    ? await sweepHorizons(game, instance, solver, options)
    : await solveSingle(game, instance, solver, options);
  report.stats.wallMs = Math.round(performance.now() - started);
  if (options.encoding !== undefined) report.encoding = options.encoding;
  return report;
}

/** Refuses encoding choices the game does not have (an `InputError` naming `encoding`). */
export function checkEncoding<I, S>(game: GameDefinition<I, S>, encoding: EncodingChoices | undefined): void {
  if (encoding === undefined) return;
  if (game.checkEncoding === undefined) {
    throw new InputError('encoding', `game ${game.id} offers no encoding choices`);
  }
  game.checkEncoding(encoding);
}

function limitsFrom(options: SolveOptions): { parallelism: number; slots: SlotPool } {
  const parallelism = options.parallelism ?? options.slots?.size ?? 1;
  if (!Number.isInteger(parallelism) || parallelism < 1) {
    throw new InputError('parallel', `must be a positive integer, got ${parallelism}`);
  }
  return { parallelism, slots: options.slots ?? new SlotPool(parallelism) };
}

async function sweepHorizons<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  solver: SatSolver,
  options: SolveOptions,
): Promise<SolveReport> {
  // The timeout covers the whole solve: the plans read or searched for before the sweep too.
  const started = performance.now();
  const { parallelism, slots } = limitsFrom(options);
  const lower = sweepLowerBound(game, instance);
  const max = options.maxHorizon ?? game.defaultMaxHorizon(instance);
  if (!Number.isInteger(max) || max < 0)
    throw new InputError('maxHorizon', `must be a non-negative integer, got ${max}`);
  if (options.maxHorizon !== undefined && max > MAX_HORIZON)
    throw new InputError('maxHorizon', `must be at most ${MAX_HORIZON}, got ${max}`);
  const minHorizon = options.minHorizon;
  const highest = Math.min(max, MAX_HORIZON);
  if (
    minHorizon !== undefined &&
    !(Number.isInteger(minHorizon) && minHorizon >= 0 && minHorizon <= highest)
  ) {
    throw new InputError(
      'minHorizon',
      `must be an integer from 0 to the largest horizon ${highest}, got ${minHorizon}`,
    );
  }
  const start = hintedStart(lower, minHorizon);
  const policy = options.policy ?? game.defaultPolicy ?? 'consecutive';
  if (!horizonPolicyNames().includes(policy)) {
    throw new InputError('policy', `unknown policy '${policy}'; known: ${horizonPolicyNames().join(', ')}`);
  }
  const patience = options.patienceSec;
  if (patience !== undefined && !(Number.isFinite(patience) && patience > 0))
    throw new InputError('patience', `must be a positive number of seconds, got ${patience}`);
  const presets = options.presets ?? game.solverPresets ?? false;
  const given = options.plan === undefined ? undefined : givenPlanOf(game, instance, options.plan, max);
  const statsByT = new Map<number, HorizonStats>();
  const solverName = await solver.version();
  options.onEvent?.({
    type: 'sweep',
    lower,
    max,
    policy,
    ...(start === undefined ? {} : { start }),
  });

  // The sweep's timer cannot fire while a formula is being built or a quick plan searched
  // (synchronously): both stop by themselves at the same deadline.
  const sweepDeadline = options.timeoutSec === undefined ? undefined : started + options.timeoutSec * 1000;
  const quick = options.quickPlan === false ? undefined : quickPlanOf(game, instance, max, sweepDeadline);
  const knownPlan =
    quick !== undefined && (given === undefined || quick.length < given.length) ? quick : given;
  const sweep = new HorizonSweep<S>({
    lower,
    max,
    parallelism,
    policy: horizonPolicy(policy),
    timeoutMs: sweepDeadline === undefined ? undefined : Math.max(1, sweepDeadline - performance.now()),
    ...(patience === undefined ? {} : { patienceMs: patienceMsOf(patience) }),
    ...(minHorizon === undefined ? {} : { hint: minHorizon }),
    ...(knownPlan === undefined ? {} : { knownPlan }),
  });
  const result = await sweep.run(
    {
      run: async (t: number, signal: AbortSignal, bounds: HorizonStartBounds): Promise<HorizonOutcome<S>> => {
        const release = await slots.acquire(signal).catch(() => undefined);
        if (release === undefined) return { result: 'unknown', reason: 'cancelled' };
        try {
          const r = await runHorizon(
            game,
            instance,
            {
              t,
              ...(sweepDeadline === undefined ? {} : { buildDeadline: sweepDeadline }),
              ...(options.maxFormulaBytes === undefined ? {} : { maxFormulaBytes: options.maxFormulaBytes }),
              ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
              ...(presets ? { preset: horizonPreset(t, bounds.lower) } : {}),
            },
            solver,
            { signal, onProgress: (progress) => options.onEvent?.({ type: 'progress', t, progress }) },
          );
          // A formula cut short (deadline, memory) went to no solver: its line names none.
          if (r.stats.unbuilt !== true) {
            statsByT.set(t, r.stats);
            options.onEvent?.({ type: 'stats', t, stats: r.stats });
          }
          if (r.result === 'sat') return { result: 'sat', plan: r.plan, planLength: r.planLength };
          if (r.result === 'unsat') return { result: 'unsat' };
          return { result: 'unknown', reason: r.result === 'unknown' ? r.reason : 'cancelled' };
        } finally {
          release();
        }
      },
    },
    { signal: options.signal, onEvent: options.onEvent },
  );

  const status: SolveStatus =
    result.status === 'optimal'
      ? 'optimal'
      : result.status === 'unsatisfiable'
        ? 'unsatisfiable'
        : result.plan !== undefined
          ? 'satisfiable'
          : 'unknown';
  const decisive = result.horizon !== undefined ? statsByT.get(result.horizon) : undefined;
  const largest = [...statsByT.values()].sort((a, b) => b.clauses - a.clauses)[0];
  const shown = decisive ?? largest;
  return {
    game: game.id,
    status,
    horizon: result.horizon,
    solution: result.plan,
    verified: result.plan !== undefined,
    bounds: result.bounds,
    horizons: result.horizons.map((h): HorizonLine => ({
      t: h.t,
      result: h.result,
      ms: Math.round(h.ms),
      ...(h.runs === undefined ? {} : { runs: h.runs }),
      ...(statsByT.get(h.t)?.rounds === undefined ? {} : { rounds: statsByT.get(h.t)!.rounds }),
      ...(h.reason === undefined ? {} : { reason: h.reason }),
      // A horizon some plan answered had no solver run to measure.
      ...(h.by === undefined
        ? { ...formulaSizeOf(statsByT.get(h.t)), ...solverUsageOf(statsByT.get(h.t)) }
        : { by: h.by }),
    })),
    stats: { vars: shown?.vars ?? 0, clauses: shown?.clauses ?? 0, solver: solverName, wallMs: 0 },
    render: game.render(instance, result.plan),
  };
}

/** What `HorizonLine.by` says of the quick plan's horizon. */
export const QUICK_PLAN = 'quick plan';

/**
 * The game's quick plan as the sweep's known plan, when the game has one that the simulator
 * accepts and that fits under `max`. A quick plan the simulator rejects is a bug in the game's
 * search, not the user's input: it fails the solve.
 */
export function quickPlanOf<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  max: number,
  deadline?: number,
): KnownPlan<S> | undefined {
  if (game.quickPlan === undefined || game.planLength === undefined) return undefined;
  const started = performance.now();
  const plan = game.quickPlan(instance, deadline);
  if (plan === undefined) return undefined;
  const length = game.planLength(plan);
  if (length > max) return undefined;
  const verdict = game.verify(instance, plan, length);
  if (!verdict.ok) throw new Error(`${game.id}: the quick plan does not verify: ${verdict.reason}`);
  return { plan, length, by: QUICK_PLAN, ms: Math.round(performance.now() - started) };
}

/** What `HorizonLine.by` says of the horizon of a plan the caller gave (`SolveOptions.plan`). */
export const GIVEN_PLAN = 'given plan';

/**
 * The caller's plan as the sweep's known plan: read by the game (a whole report stands for its
 * `solution`), then replayed by the simulator. Bad input of any kind is an `InputError` naming
 * `plan`, before any solver runs (the farm's API checks a job's plan with it too).
 */
export function givenPlanOf<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  input: unknown,
  max: number,
): KnownPlan<S> {
  checkOptionScope(game, { plan: input });
  if (game.parsePlan === undefined || game.planLength === undefined) {
    throw new InputError('plan', `game ${game.id} does not take a plan`);
  }
  const plan = game.parsePlan(solutionOfReport(game.id, input), instance);
  const length = game.planLength(plan);
  if (length > max) {
    throw new InputError('plan', `takes ${length} moves, more than the largest horizon ${max}`);
  }
  const verdict = game.verify(instance, plan, length);
  if (!verdict.ok) throw new InputError('plan', `does not solve the instance: ${verdict.reason}`);
  return { plan, length, by: GIVEN_PLAN };
}

/** The `solution` of a solve report (an object with `game` and `status`), else `input` itself. */
function solutionOfReport(gameId: string, input: unknown): unknown {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return input;
  const report = input as Record<string, unknown>;
  if (!('game' in report && 'status' in report)) return input;
  if (report.game !== gameId) {
    throw new InputError('plan.game', `the report is of ${JSON.stringify(report.game)}, not of ${gameId}`);
  }
  if (report.solution === undefined || report.solution === null) {
    throw new InputError('plan.solution', `the report (status ${JSON.stringify(report.status)}) has no plan`);
  }
  return report.solution;
}

async function solveSingle<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  solver: SatSolver,
  options: SolveOptions,
): Promise<SolveReport> {
  const { slots } = limitsFrom(options);
  const solverName = await solver.version();
  // Stopped before its turn came (a signal while the solver's version was read): the report of a
  // solve that ran nothing, not an error.
  const release = await slots.acquire(options.signal).catch((err: unknown) => {
    if (options.signal?.aborted) return undefined;
    throw err;
  });
  if (release === undefined) {
    options.onEvent?.({ type: 'horizon', t: 0, state: 'cancelled', ms: 0 });
    return {
      game: game.id,
      status: 'unknown',
      verified: false,
      bounds: { lower: 0 },
      horizons: [{ t: 0, result: 'cancelled', ms: 0 }],
      stats: { vars: 0, clauses: 0, solver: solverName, wallMs: 0 },
      render: game.render(instance, undefined),
    };
  }
  try {
    options.onEvent?.({ type: 'horizon', t: 0, state: 'running', ms: 0 });
    const started = performance.now();
    const first = await runHorizon(
      game,
      instance,
      {
        t: 0,
        ...(options.timeoutSec === undefined ? {} : { timeoutMs: options.timeoutSec * 1000 }),
        ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
        ...(options.unique ? { unique: true } : {}),
      },
      solver,
      {
        signal: options.signal,
        onProgress: (progress: SolverProgress) => options.onEvent?.({ type: 'progress', t: 0, progress }),
      },
    );
    const ms = Math.round(performance.now() - started);
    options.onEvent?.({ type: 'horizon', t: 0, state: first.result, ms });
    const solved = first.result === 'sat';
    const report: SolveReport = {
      game: game.id,
      status: solved ? 'satisfiable' : first.result === 'unsat' ? 'unsatisfiable' : 'unknown',
      solution: solved ? first.plan : undefined,
      verified: solved,
      bounds: { lower: 0, upper: solved ? 0 : undefined },
      horizons: [
        { t: 0, result: first.result, ms, ...formulaSizeOf(first.stats), ...solverUsageOf(first.stats) },
      ],
      stats: { vars: first.stats.vars, clauses: first.stats.clauses, solver: solverName, wallMs: 0 },
      render: game.render(instance, solved ? first.plan : undefined),
    };
    if (first.unique !== undefined) report.unique = first.unique;
    if (first.secondSolution !== undefined) {
      report.secondSolution = first.secondSolution;
      report.secondRender = game.render(instance, first.secondSolution);
    }
    return report;
  } finally {
    release();
  }
}
