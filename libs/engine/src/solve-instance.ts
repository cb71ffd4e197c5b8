import { gameById, type GameDefinition, parseSolveOptions, type SolveUserOptions } from '@satfarm/games';
import { createSolver, type SatSolver, type SolverProgress, type SolverRunnerOptions } from '@satfarm/solver';
import {
  HorizonSweep,
  type HorizonOutcome,
  type KnownPlan,
  horizonPolicy,
  hintedStart,
  horizonPreset,
  type HorizonStartBounds,
  patienceMsOf,
  type SweepEvent,
} from '@satfarm/sweep';

import { type HorizonStats } from './horizon-solver.js';
import { type HorizonPortfolio, runHorizonRaced } from './horizon-portfolio.js';
import type { HorizonRun, HorizonRunResult } from './run-horizon.js';
import {
  type HorizonCubes,
  runCubes,
  type SplitHorizonResult,
  splitHorizon,
  type SplitProgress,
} from './split-horizon.js';
import { type ExpectedAnswer, MemoryPortfolioRecord, type PortfolioRecord } from './portfolio.js';
import { checkSolveOptions, proofLimitBytes, type SweepSettings } from './solve-options.js';
import { SlotPool } from './slot-pool.js';
import {
  formulaSizeOf,
  type HorizonLine,
  isCertified,
  proofOf,
  type SolveReport,
  type SolveStatus,
  solverUsageOf,
} from './solve-report.js';

/**
 * What a caller may ask of one solve: the user options (`SolveOptionsSchema`, defined with the
 * farm's job options in libs/games/src/job-options.ts, checked by `parseSolveOptions` and
 * `checkSolveOptions` before any solver runs), and what only a caller in this process gives.
 */
export interface SolveOptions extends SolveUserOptions {
  /**
   * The most bytes one horizon's formula may take (4 a literal): a larger one ends its horizon
   * `unknown`, reason `formula-limit`, without a solver run. Default: none
   * (`defaultMaxFormulaBytes` is what the CLI and the farm's workers use).
   */
  maxFormulaBytes?: number;
  /** Shared local slots, when several solves run in one process. */
  slots?: SlotPool;
  /** How the solver is run (its binary, its limits); the solver's defaults when unset. */
  solverRunner?: SolverRunnerOptions;
  /** Where a portfolio's races are recorded and read (`portfolio`); this solve's own by default. */
  portfolioRecord?: PortfolioRecord;
  signal?: AbortSignal;
  onEvent?: (event: SolveEvent) => void;
}

/** Progress of a solve, for terminals and websockets. */
export type SolveEvent =
  /** `start`: where the window opens, above `lower`, from `minHorizon`. */
  | { type: 'sweep'; lower: number; max: number; policy: string; start?: number }
  | SweepEvent
  | { type: 'progress'; t: number; progress: SolverProgress }
  | { type: 'stats'; t: number; stats: HorizonStats }
  /** A horizon split into cubes: made, then after each cube's answer (`refuted` of `cubes`: the proof's progress). */
  | ({ type: 'split'; t: number } & SplitProgress);

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
 * (the bound is code; the UNSAT result is a proof). With `trusted` (`trustBound`, for a game whose
 * bound an exhaustive search proves: `boundProof`), at the bound itself.
 */
export function sweepLowerBound<I>(game: GameDefinition<I, unknown>, instance: I, trusted = false): number {
  const bound = game.lowerBound(instance);
  return trusted && game.boundProof !== undefined ? bound : Math.max(0, bound - 1);
}

/**
 * The smallest horizon known SAT before any run: a trusted bound that the game proved to be the
 * optimum (`boundIsOptimum`), which the sweep then runs with the SAT preset; else undefined. A
 * caller's plan keeps the horizons up to its length open (docs/cli.md, --plan), so none then.
 */
export function sweepSatFrom<I>(
  game: GameDefinition<I, unknown>,
  instance: I,
  settings: Pick<SweepSettings<unknown>, 'boundProof' | 'givenPlan'>,
): number | undefined {
  if (settings.boundProof === undefined || settings.givenPlan !== undefined) return undefined;
  if (game.boundIsOptimum?.(instance) !== true) return undefined;
  return game.lowerBound(instance);
}

/**
 * The largest horizon a sweep runs: the user's, or the horizon known SAT (`sweepSatFrom`) when
 * that is smaller, since no horizon above a known plan's length can be the optimum; a hint
 * (`minHorizon`) above it still runs.
 */
export function sweepMax(max: number, satFrom: number | undefined, minHorizon?: number): number {
  return satFrom === undefined ? max : Math.min(max, Math.max(satFrom, minHorizon ?? satFrom));
}

/** Solves an instance already parsed by its game (see `solveInstance`). */
export async function solveParsed<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  options: SolveOptions = {},
): Promise<SolveReport> {
  const settings = checkSolveOptions(game, instance, parseSolveOptions(options));
  const solver = createSolver(options.solver ?? game.defaultSolver ?? 'kissat', options.solverRunner);
  const started = performance.now();
  const report = game.planning
    ? await sweepHorizons(game, instance, solver, options, settings)
    : await solveSingle(game, instance, solver, options);
  report.stats.wallMs = Math.round(performance.now() - started);
  if (options.encoding !== undefined) report.encoding = options.encoding;
  if (options.certify === true) report.certified = isCertified(report, game.planning);
  return report;
}

/** A horizon's figures, unless it was split and every cube refuted by its bound (no formula built). */
function solvedStats(stats: HorizonStats | undefined): HorizonStats | undefined {
  return stats?.split !== undefined && stats.clauses === 0 ? undefined : stats;
}

/** Which configuration answered a horizon and which raced it, when it raced. */
function portfolioStatsOf(stats: HorizonStats | undefined): Pick<HorizonLine, 'config' | 'raced'> {
  if (stats?.config === undefined) return {};
  return { config: stats.config, raced: stats.raced ?? [] };
}

/** The portfolio a horizon races with, when `options.portfolio` asks for one. */
function portfolioOf(
  options: SolveOptions,
  slots: SlotPool,
  expected: ExpectedAnswer,
): HorizonPortfolio | undefined {
  const size = options.portfolio;
  if (size === undefined || size === 'off' || size < 2) return undefined;
  return { size, record: options.portfolioRecord ?? thisProcessRecord, slots, expected };
}

/** The proof request of every run of a certified solve (`certify`, `proofLimitMiB`). */
function proofRequestOf(options: SolveOptions): Pick<HorizonRun, 'proof'> {
  return options.certify === true ? { proof: { maxBytes: proofLimitBytes(options) } } : {};
}

/** The races of this process's solves, when the caller keeps no record. */
const thisProcessRecord = new MemoryPortfolioRecord();

function limitsFrom(options: SolveOptions): { parallelism: number; slots: SlotPool } {
  const parallelism = options.parallelism ?? options.slots?.size ?? 1;
  return { parallelism, slots: options.slots ?? new SlotPool(parallelism) };
}

async function sweepHorizons<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  solver: SatSolver,
  options: SolveOptions,
  settings: SweepSettings<S>,
): Promise<SolveReport> {
  // The timeout covers the whole solve: the quick plan searched for before the sweep too.
  const started = performance.now();
  const { parallelism, slots } = limitsFrom(options);
  const lower = sweepLowerBound(game, instance, settings.boundProof !== undefined);
  const satFrom = sweepSatFrom(game, instance, settings);
  const { minHorizon, policy, patienceSec: patience, presets } = settings;
  const max = sweepMax(settings.maxHorizon, satFrom, minHorizon);
  const start = hintedStart(lower, minHorizon);
  const given = settings.givenPlan;
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
          const r = await runOrSplit(
            game,
            instance,
            {
              t,
              ...(sweepDeadline === undefined ? {} : { buildDeadline: sweepDeadline }),
              ...(options.maxFormulaBytes === undefined ? {} : { maxFormulaBytes: options.maxFormulaBytes }),
              ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
              ...(presets ? { preset: horizonPreset(t, bounds.lower, satFrom) } : {}),
              ...proofRequestOf(options),
            },
            solver,
            { signal, onProgress: (progress) => options.onEvent?.({ type: 'progress', t, progress }) },
            portfolioOf(options, slots, horizonPreset(t, bounds.lower, satFrom)),
            {
              afterSec: settings.splitAfterSec,
              slots,
              release,
              onProgress: (progress) => options.onEvent?.({ type: 'split', t, ...progress }),
            },
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
    ...(settings.boundProof === undefined ? {} : { boundProof: settings.boundProof }),
    horizons: result.horizons.map((h): HorizonLine => ({
      t: h.t,
      result: h.result,
      ms: Math.round(h.ms),
      ...(h.runs === undefined ? {} : { runs: h.runs }),
      ...(statsByT.get(h.t)?.rounds === undefined ? {} : { rounds: statsByT.get(h.t)!.rounds }),
      ...(h.reason === undefined ? {} : { reason: h.reason }),
      // A horizon some plan answered had no solver run to measure.
      ...(h.by === undefined
        ? { ...formulaSizeOf(solvedStats(statsByT.get(h.t))), ...solverUsageOf(statsByT.get(h.t)) }
        : { by: h.by }),
      ...portfolioStatsOf(statsByT.get(h.t)),
      ...(statsByT.get(h.t)?.split === undefined ? {} : { split: statsByT.get(h.t)!.split }),
      ...(h.result === 'unsat' || h.result === 'unknown' ? proofOf(statsByT.get(h.t)) : {}),
    })),
    stats: { vars: shown?.vars ?? 0, clauses: shown?.clauses ?? 0, solver: solverName, wallMs: 0 },
    render: game.render(instance, result.plan),
  };
}

/** When and how a horizon of the sweep splits (`SolveOptions.split`). */
interface SweepSplit {
  /** Seconds the horizon runs whole first; absent: it never splits. */
  afterSec: number | undefined;
  slots: SlotPool;
  /** Gives back the slot the horizon runs whole on (its cubes take slots of their own). */
  release: () => void;
  onProgress: (progress: SplitProgress) => void;
}

/**
 * Runs one horizon of the sweep whole (`runHorizonRaced`); with a split, only for `afterSec`: a
 * horizon unanswered by then is split into cubes (`splitHorizon`, `runCubes`), and its whole run
 * stops and gives its slot back to them. The split is made while the whole run goes on, which it
 * only stops once there are cubes to run (a game may not split at this horizon).
 */
async function runOrSplit<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  run: HorizonRun,
  solver: SatSolver,
  controls: { signal: AbortSignal; onProgress: (progress: SolverProgress) => void },
  portfolio: HorizonPortfolio | undefined,
  split: SweepSplit,
): Promise<HorizonRunResult<S> | SplitHorizonResult<S>> {
  const cubesOf = (): HorizonCubes<I, S> | undefined =>
    splitHorizon(game, instance, run.t, { minCubes: 2 * split.slots.size });
  const { afterSec } = split;
  if (afterSec === undefined || game.split === undefined) {
    return runHorizonRaced(game, instance, run, solver, controls, portfolio);
  }
  let cubes: HorizonCubes<I, S> | undefined;
  let afterMs: number | undefined;
  if (afterSec > 0) {
    const started = performance.now();
    const patience = new AbortController();
    const whole = runHorizonRaced(
      game,
      instance,
      run,
      solver,
      { ...controls, signal: AbortSignal.any([controls.signal, patience.signal]) },
      portfolio,
    );
    let timer: NodeJS.Timeout | undefined;
    const waited = await Promise.race([
      whole,
      new Promise<'patience'>((resolve) => (timer = setTimeout(() => resolve('patience'), afterSec * 1000))),
    ]);
    clearTimeout(timer);
    if (waited !== 'patience' || controls.signal.aborted) return whole;
    try {
      cubes = cubesOf();
    } catch (err) {
      // A split's plan the simulator rejects fails the sweep; the whole run stops first.
      patience.abort();
      await whole.catch(() => undefined);
      throw err;
    }
    if (cubes === undefined) return whole;
    patience.abort();
    const stopped = await whole;
    // Answered as it was stopped: the answer stands.
    if (stopped.result === 'sat' || stopped.result === 'unsat') return stopped;
    afterMs = performance.now() - started;
  } else {
    cubes = cubesOf();
    if (cubes === undefined) return runHorizonRaced(game, instance, run, solver, controls, portfolio);
  }
  if (controls.signal.aborted) return { result: 'cancelled', stats: emptyStatsOf(await solver.version()) };
  split.release();
  return runCubes(game, instance, cubes, run, solver, {
    slots: split.slots,
    signal: controls.signal,
    onProgress: split.onProgress,
    ...(afterMs === undefined ? {} : { afterMs }),
  });
}

function emptyStatsOf(solver: string): HorizonStats {
  return { vars: 0, clauses: 0, solver, solverMs: 0, encodeMs: 0 };
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
    const first = await runHorizonRaced(
      game,
      instance,
      {
        t: 0,
        ...(options.timeoutSec === undefined ? {} : { timeoutMs: options.timeoutSec * 1000 }),
        ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
        ...(options.unique ? { unique: true } : {}),
        ...proofRequestOf(options),
      },
      solver,
      {
        signal: options.signal,
        onProgress: (progress: SolverProgress) => options.onEvent?.({ type: 'progress', t: 0, progress }),
      },
      portfolioOf(options, slots, 'either'),
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
        {
          t: 0,
          result: first.result,
          ms,
          ...(first.result === 'unknown' ? { reason: first.reason } : {}),
          ...formulaSizeOf(first.stats),
          ...solverUsageOf(first.stats),
          ...portfolioStatsOf(first.stats),
          ...proofOf(first.stats),
        },
      ],
      stats: { vars: first.stats.vars, clauses: first.stats.clauses, solver: solverName, wallMs: 0 },
      render: game.render(instance, solved ? first.plan : undefined),
    };
    if (first.unique !== undefined) report.unique = first.unique;
    const { proof: uniqueProof } = proofOf({ proof: first.uniqueProof });
    if (uniqueProof !== undefined) report.uniqueProof = uniqueProof;
    if (first.secondSolution !== undefined) {
      report.secondSolution = first.secondSolution;
      report.secondRender = game.render(instance, first.secondSolution);
    }
    return report;
  } finally {
    release();
  }
}
