import { CnfFormula, FormulaBuildStopped } from '@satfarm/cnf';
import { type EncodingChoices, type GameDefinition, InputError } from '@satfarm/games';
import type { ProofFigures, ProofRequest, SatSolver, SolverPreset, SolverProgress } from '@satfarm/solver';

import { type FormulaSize } from './solve-report.js';
import {
  encodeWithin,
  type HorizonResult,
  type HorizonStats,
  solveEncoded,
  unbuiltReason,
} from './horizon-solver.js';

/** One horizon to run: what the CLI's sweep, `serve`'s slots and a farm worker all ask for. */
export interface HorizonRun {
  t: number;
  /** The game's encoding choices (`EncodeOptions.variant`). */
  encoding?: EncodingChoices;
  preset?: SolverPreset;
  /** The solver's random seed (0, its default, when unset). */
  seed?: number;
  /** The time the whole run may take, its formula's build included. */
  timeoutMs?: number;
  /**
   * A `performance.now()` time past which the formula is not built on (a sweep's deadline), when
   * earlier than the end of `timeoutMs`.
   */
  buildDeadline?: number;
  /** The most bytes one formula may take (4 a literal); past it the horizon ends `formula-limit`. */
  maxFormulaBytes?: number;
  /** After a solution, solve again with it blocked: UNSAT proves it unique. */
  unique?: boolean;
  /**
   * Certify: every solver call writes a DRAT proof (at most `maxBytes`), and drat-trim checks the
   * proof of an UNSAT answer before it stands; the check counts in `timeoutMs`
   * (docs/solvers.md#certified-answers).
   */
  proof?: ProofRequest;
}

/** How a caller steers a run while it goes. */
export interface HorizonRunControls {
  /** Kills the solver; the result is then `cancelled`. */
  signal?: AbortSignal;
  /**
   * Asked while the formula is built, when `signal` cannot fire (the build holds the event loop):
   * true stops the build, and the result is `cancelled`. Another thread answers it.
   */
  stop?: () => boolean;
  /** The solver's progress lines, with the size of the formula it works on. */
  onProgress?: (progress: SolverProgress, formula: FormulaSize) => void;
}

/** A horizon's result, with the uniqueness check's answer when one was asked for. */
export type HorizonRunResult<S> = HorizonResult<S> & {
  unique?: boolean;
  secondSolution?: S;
  /** Certified: the proof of the uniqueness check's UNSAT answer (`unique` true). */
  uniqueProof?: ProofFigures;
};

/**
 * Runs one horizon: encode within the run's limits, solve, decode and verify with the game's
 * simulator; then, for `unique`, solve again with the solution blocked. The one path every
 * horizon takes, in-process or in a worker's thread (docs/farm.md#one-horizon).
 */
export async function runHorizon<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  run: HorizonRun,
  solver: SatSolver,
  controls: HorizonRunControls = {},
): Promise<HorizonRunResult<S>> {
  const encodeStart = performance.now();
  const fromTimeout = run.timeoutMs === undefined ? undefined : encodeStart + run.timeoutMs;
  const deadline =
    fromTimeout === undefined || run.buildDeadline === undefined
      ? (fromTimeout ?? run.buildDeadline)
      : Math.min(fromTimeout, run.buildDeadline);
  const encoded = encodeWithin(
    game,
    instance,
    run.t,
    run.encoding === undefined ? undefined : { variant: run.encoding },
    { deadline, stop: controls.stop, maxFormulaBytes: run.maxFormulaBytes },
  );
  const encodeMs = performance.now() - encodeStart;
  if (encoded instanceof FormulaBuildStopped) {
    const stats: HorizonStats = {
      vars: 0,
      clauses: 0,
      solver: await solver.version(),
      solverMs: 0,
      encodeMs,
      unbuilt: true,
    };
    if (encoded.reason === 'stop') return { result: 'cancelled', stats };
    return { result: 'unknown', reason: unbuiltReason(encoded), stats };
  }
  if (run.unique && encoded.blockingClause === undefined)
    throw new InputError('unique', `game ${game.id} does not support uniqueness checks`);
  if (run.proof !== undefined && !solver.proofs)
    throw new InputError(
      'solver',
      `${solver.name} writes no proofs, so its UNSAT answers cannot be certified`,
    );
  const { onProgress } = controls;
  const size = { vars: encoded.formula.numVars, clauses: encoded.formula.numClauses };
  const options = {
    signal: controls.signal,
    onProgress:
      onProgress === undefined ? undefined : (progress: SolverProgress) => onProgress(progress, size),
    preset: run.preset,
    seed: run.seed,
    maxFormulaBytes: run.maxFormulaBytes,
    ...(run.proof === undefined ? {} : { proof: run.proof }),
    timeoutMs: fromTimeout === undefined ? undefined : Math.max(1, fromTimeout - performance.now()),
  };
  const first = await solveEncoded(game, instance, run.t, encoded, solver, options, encodeMs);
  if (!run.unique || first.result !== 'sat' || encoded.blockingClause === undefined) return first;
  const blocked = new CnfFormula(encoded.formula.pool);
  blocked.addAll(encoded.formula.clauses());
  blocked.add(encoded.blockingClause(first.model));
  const second = await solveEncoded(game, instance, run.t, { ...encoded, formula: blocked }, solver, {
    ...options,
    timeoutMs: fromTimeout === undefined ? undefined : Math.max(1, fromTimeout - performance.now()),
  });
  if (second.result === 'cancelled') return { result: 'cancelled', stats: first.stats };
  if (second.result === 'unsat')
    return {
      ...first,
      unique: true,
      ...(second.stats.proof === undefined ? {} : { uniqueProof: second.stats.proof }),
    };
  if (second.result === 'sat') return { ...first, unique: false, secondSolution: second.plan };
  return first;
}
