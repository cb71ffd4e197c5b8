import { type BuildLimits, buildWithin, FormulaBuildStopped, type Model } from '@satfarm/cnf';
import type { EncodeOptions, Encoded, GameDefinition } from '@satfarm/games';
import type {
  ProofFigures,
  ProofRequest,
  SatSolver,
  SolveOutcome,
  SolverPreset,
  SolverProgress,
} from '@satfarm/solver';

import type { RacedRun } from './portfolio.js';
import type { SplitStats } from './split-horizon.js';

/** A decoded solution failed the game's own simulator: a bug in an encoding, never shown as an answer. */
export class VerificationError extends Error {
  constructor(
    readonly game: string,
    readonly horizon: number,
    readonly reason: string,
  ) {
    super(`${game}: the solution found at horizon ${horizon} fails verification: ${reason}`);
    this.name = 'VerificationError';
  }
}

/** Figures about one horizon's run. */
export interface HorizonStats {
  vars: number;
  clauses: number;
  solver: string;
  solverMs: number;
  encodeMs: number;
  conflicts?: number;
  /** The solver preset the horizon ran with, when not the default. */
  preset?: 'sat' | 'unsat';
  /** Solver calls of a lazy or windowed encoding (absent when one call decided). */
  rounds?: number;
  /** CPU time of the solver processes, summed over rounds (where the launcher knows it). */
  solverCpuMs?: number;
  /** The largest peak resident set of the solver processes, KiB (as `solverCpuMs`). */
  solverPeakRssKiB?: number;
  /** The configuration (solver/preset/seed) whose answer stands, when the horizon raced others. */
  config?: string;
  /** The configurations that raced it, with how long each ran. */
  raced?: RacedRun[];
  /** The horizon was split into cubes (`runHorizonSplit`); the figures above sum its cubes'. */
  split?: SplitStats;
  /**
   * The formula's build stopped (at the build deadline, or past `maxFormulaBytes`): no solver ran
   * (vars, clauses 0).
   */
  unbuilt?: true;
  /**
   * Certified runs: the last solver call's proof, when its answer needed one (UNSAT: checked;
   * or cut at its cap): size, check time, result (docs/solvers.md#certified-answers).
   */
  proof?: ProofFigures;
}

/** The result of one horizon: a verified solution, a proof of none, or no answer. */
export type HorizonResult<S> =
  | { result: 'sat'; plan: S; planLength: number; model: Model; stats: HorizonStats }
  | { result: 'unsat'; stats: HorizonStats }
  | { result: 'unknown'; reason: string; stats: HorizonStats }
  | { result: 'cancelled'; stats: HorizonStats };

export interface HorizonSolveOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  preset?: SolverPreset;
  seed?: number;
  encode?: EncodeOptions;
  onProgress?: (p: SolverProgress) => void;
  /**
   * A `performance.now()` time past which the formula is not built on (a sweep's deadline): a
   * horizon whose formula takes longer ends `unknown` (timeout) without a solver run. Building
   * cannot be stopped by `signal` or a timer (it runs synchronously), only by this. `timeoutMs`
   * sets one too, counted from the call.
   */
  buildDeadline?: number;
  /**
   * The most bytes one formula may take (4 a literal, see `BuildLimits`): a horizon whose formula
   * grows past it ends `unknown`, reason `formula-limit`, without a solver run.
   */
  maxFormulaBytes?: number;
  /** Certify every call's UNSAT answer with its DRAT proof (`SolveRequest.proof`). */
  proof?: ProofRequest;
}

/** Why a horizon has no answer when its formula outgrew `maxFormulaBytes`. */
export const FORMULA_LIMIT_REASON = 'formula-limit';

/** A horizon's reason for no answer when its build stopped for `stopped`. */
export function unbuiltReason(stopped: FormulaBuildStopped): string {
  return stopped.reason === 'size' ? FORMULA_LIMIT_REASON : 'timeout';
}

/** The earlier of `buildDeadline` and the end of `timeoutMs` from now, if either is set. */
function buildDeadlineOf(options: HorizonSolveOptions): number | undefined {
  const fromTimeout = options.timeoutMs === undefined ? undefined : performance.now() + options.timeoutMs;
  if (options.buildDeadline === undefined) return fromTimeout;
  return fromTimeout === undefined ? options.buildDeadline : Math.min(fromTimeout, options.buildDeadline);
}

/**
 * Encodes one horizon within `limits` (see `buildWithin`): the encoding, or why its build stopped
 * (the deadline passed, the stop test said so, or the formula outgrew its memory). A stop test is
 * one another thread can answer, since this thread's event loop waits meanwhile.
 */
export function encodeWithin<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  horizon: number,
  encode: EncodeOptions | undefined,
  limits: BuildLimits,
): Encoded<S> | FormulaBuildStopped {
  try {
    return buildWithin(limits, () => game.encode(instance, horizon, encode));
  } catch (err) {
    if (err instanceof FormulaBuildStopped) return err;
    throw err;
  }
}

/** The build limits of `options`: its deadline and formula memory. */
function buildLimitsOf(options: HorizonSolveOptions): BuildLimits {
  return { deadline: buildDeadlineOf(options), maxFormulaBytes: options.maxFormulaBytes };
}

/**
 * Solves an encoded horizon, decodes the model and verifies the plan with the game's simulator
 * before returning it (`runHorizon` encodes first).
 */
export async function solveEncoded<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  horizon: number,
  encoded: Encoded<S>,
  solver: SatSolver,
  options: HorizonSolveOptions = {},
  encodeMs = 0,
): Promise<HorizonResult<S>> {
  // Lazy encodings (`refine`) add the clauses a model breaks and solve again, until a model
  // needs no refinement or the formula becomes UNSAT; windowed ones (`widen`) solve a wider
  // window while a model leaves theirs.
  const deadline = options.timeoutMs === undefined ? undefined : performance.now() + options.timeoutMs;
  const buildLimits = buildLimitsOf(options);
  let buildStopped: FormulaBuildStopped | undefined;
  let solverMs = 0;
  let conflicts = 0;
  let rounds = 0;
  let cpuMs: number | undefined;
  let peakRssKiB: number | undefined;
  let outcome: SolveOutcome;
  for (;;) {
    outcome = await solver.solve({
      formula: encoded.formula,
      signal: options.signal,
      timeoutMs: deadline === undefined ? undefined : Math.max(1, deadline - performance.now()),
      preset: options.preset,
      ...(options.seed === undefined ? {} : { seed: options.seed }),
      ...(options.proof === undefined ? {} : { proof: options.proof }),
      onProgress: options.onProgress,
    });
    rounds++;
    solverMs += outcome.stats.wallMs;
    conflicts += outcome.stats.conflicts ?? 0;
    if (outcome.stats.cpuMs !== undefined) cpuMs = (cpuMs ?? 0) + outcome.stats.cpuMs;
    if (outcome.stats.peakRssKiB !== undefined)
      peakRssKiB = Math.max(peakRssKiB ?? 0, outcome.stats.peakRssKiB);
    if (outcome.status !== 'sat') break;
    const cuts = encoded.refine?.(outcome.model);
    if (cuts !== undefined && cuts.length > 0) {
      encoded.formula.addAll(cuts);
      continue;
    }
    const encodeStart = performance.now();
    let wider: Encoded<S> | undefined;
    try {
      const { model } = outcome;
      wider = buildWithin(buildLimits, () => encoded.widen?.(model));
    } catch (err) {
      if (!(err instanceof FormulaBuildStopped)) throw err;
      buildStopped = err;
    }
    encodeMs += performance.now() - encodeStart;
    if (wider === undefined) break;
    encoded = wider;
  }
  const stats: HorizonStats = {
    vars: encoded.formula.numVars,
    clauses: encoded.formula.numClauses,
    solver: outcome.stats.solver,
    solverMs,
    encodeMs,
    conflicts,
    ...(rounds > 1 ? { rounds } : {}),
    ...(cpuMs === undefined ? {} : { solverCpuMs: cpuMs }),
    ...(peakRssKiB === undefined ? {} : { solverPeakRssKiB: peakRssKiB }),
    ...(options.preset === 'sat' || options.preset === 'unsat' ? { preset: options.preset } : {}),
    ...(outcome.stats.proof === undefined ? {} : { proof: outcome.stats.proof }),
  };
  // A wider window not built (in time, or in memory): the narrower one's model is no plan.
  if (buildStopped !== undefined) return { result: 'unknown', reason: unbuiltReason(buildStopped), stats };
  switch (outcome.status) {
    case 'sat': {
      const plan = encoded.decode(outcome.model);
      const verdict = game.verify(instance, plan, horizon);
      if (!verdict.ok) throw new VerificationError(game.id, horizon, verdict.reason);
      const planLength = game.planLength ? game.planLength(plan) : horizon;
      return { result: 'sat', plan, planLength, model: outcome.model, stats };
    }
    case 'unsat':
      if (encoded.unprovenUnsat !== undefined)
        return { result: 'unknown', reason: encoded.unprovenUnsat, stats };
      return { result: 'unsat', stats };
    case 'unknown':
      return { result: 'unknown', reason: outcome.reason, stats };
    case 'cancelled':
      return { result: 'cancelled', stats };
  }
}
