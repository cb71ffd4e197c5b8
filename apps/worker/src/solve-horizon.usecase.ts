import { CnfFormula, FormulaBuildStopped } from '@satfarm/cnf';
import {
  encodeWithin,
  type GameLookup,
  type HorizonResult,
  solveEncoded,
  solverUsageOf,
  unbuiltReason,
} from '@satfarm/engine';
import { gameById } from '@satfarm/games';
import type { FinishedReport, HorizonJob, HorizonProgress } from '@satfarm/queue';
import { createSolver, type SatSolver, type SolverName, type SolverProgress } from '@satfarm/solver';

import { ParsedInstanceCache } from './parsed-instance.cache.js';

/** Finds a game by name (the registry by default; tests pass their own games). */

/** What one horizon's run produced: a finished report without its routing fields. */
export type HorizonRunOutcome = Omit<
  FinishedReport,
  'kind' | 'jobId' | 'game' | 't' | 'worker' | 'cancelLatencyMs'
>;

/**
 * Solves one horizon job: parse the instance (cached per job), encode horizon T, run the solver
 * with the job's remaining time, decode and verify (`solveHorizon`). For single-solve games with
 * `unique`, a second solve with the first solution blocked tells whether it is unique. Aborting
 * `signal` kills the solver; the outcome is then `cancelled`. `onProgress` hears the search's
 * conflicts as the solver prints them. `buildStop` is asked while the formula is built, when the
 * signal cannot fire (the event loop waits for the build): true stops the build, and the outcome
 * is `cancelled` once the signal has fired too. A formula growing past `maxFormulaBytes` is not
 * built on: the outcome is `unknown`, reason `formula-limit`. Throws `VerificationError` or
 * `SolverError` when no trustworthy answer came out.
 */
export class SolveHorizonUseCase {
  private readonly solvers = new Map<SolverName, SatSolver>();

  constructor(
    private readonly games: GameLookup = gameById,
    private readonly instances = new ParsedInstanceCache(),
    private readonly solverFor: (name: SolverName) => SatSolver = createSolver,
    /** The most bytes one formula may take (4 a literal); undefined: none. */
    private readonly maxFormulaBytes?: number,
  ) {}

  async execute(
    job: HorizonJob,
    signal: AbortSignal,
    onProgress?: (progress: HorizonProgress) => void,
    buildStop?: () => boolean,
  ): Promise<HorizonRunOutcome> {
    const startedAt = Date.now();
    const game = this.games(job.game);
    const instance = this.instances.getOrParse(job.jobId, () => game.parse(job.instance));
    const solver = this.solver(job.solver);
    // The job's deadline, or a patient probe's limit, whichever comes first.
    const untilDeadline = job.deadline === undefined ? undefined : job.deadline - startedAt;
    const timeoutMs =
      job.limitMs === undefined ? untilDeadline : Math.min(job.limitMs, untilDeadline ?? job.limitMs);
    const unbuilt = async (encodeMs: number, reason = 'timeout'): Promise<HorizonRunOutcome> => ({
      result: 'unknown',
      reason,
      startedAt,
      ms: Math.round(encodeMs),
      stats: { vars: 0, clauses: 0, solver: await solver.version(), solverMs: 0, encodeMs, unbuilt: true },
    });
    if (timeoutMs !== undefined && timeoutMs <= 0) return unbuilt(0);
    const encodeStart = performance.now();
    // Building runs synchronously, out of the timers' reach: it stops itself at the deadline, at
    // a cancel (`buildStop`) or past its memory.
    const encoded = encodeWithin(
      game,
      instance,
      job.t,
      job.encoding === undefined ? undefined : { variant: job.encoding },
      {
        deadline: timeoutMs === undefined ? undefined : encodeStart + timeoutMs,
        stop: buildStop,
        maxFormulaBytes: this.maxFormulaBytes,
      },
    );
    if (encoded instanceof FormulaBuildStopped && encoded.reason === 'stop') {
      const encodeMs = performance.now() - encodeStart;
      // Stopped for a cancel that this thread's own listener has yet to hear: once it has, the
      // signal carries the cancel's reason, which the processor reports. A signal that stays
      // silent leaves the horizon cancelled without a reason: handed back, then refused by the
      // cancel marker.
      await abortedWithin(signal, CANCEL_HEARD_WITHIN_MS);
      return {
        result: 'cancelled',
        startedAt,
        ms: Date.now() - startedAt,
        stats: { vars: 0, clauses: 0, solver: await solver.version(), solverMs: 0, encodeMs, unbuilt: true },
      };
    }
    if (encoded instanceof FormulaBuildStopped)
      return unbuilt(performance.now() - encodeStart, unbuiltReason(encoded));
    const encodeMs = performance.now() - encodeStart;
    const solverName = onProgress === undefined ? '' : await solver.version();
    const options = {
      signal,
      timeoutMs,
      ...(this.maxFormulaBytes === undefined ? {} : { maxFormulaBytes: this.maxFormulaBytes }),
      ...(job.preset === undefined ? {} : { preset: job.preset }),
      ...(onProgress === undefined
        ? {}
        : {
            onProgress: ({ conflicts }: SolverProgress) => {
              if (conflicts === undefined) return;
              const { numVars: vars, numClauses: clauses } = encoded.formula;
              onProgress({ ms: Date.now() - startedAt, conflicts, vars, clauses, solver: solverName });
            },
          }),
    };
    const first = await solveEncoded(game, instance, job.t, encoded, solver, options, encodeMs);
    const report = outcome(first, startedAt);
    if (!job.unique || first.result !== 'sat' || !encoded.blockingClause) return report;
    // A second solve with the first solution excluded: UNSAT proves it unique.
    const blocked = new CnfFormula(encoded.formula.pool);
    for (const clause of encoded.formula.clauses()) blocked.add(Array.from(clause));
    blocked.add(encoded.blockingClause(first.model));
    const second = await solveEncoded(
      game,
      instance,
      job.t,
      { ...encoded, formula: blocked },
      solver,
      options,
    );
    if (second.result === 'cancelled') return { ...outcome(second, startedAt), stats: report.stats };
    if (second.result === 'unsat') return { ...report, unique: true, ms: Date.now() - startedAt };
    if (second.result === 'sat')
      return { ...report, unique: false, secondSolution: second.plan, ms: Date.now() - startedAt };
    return { ...report, ms: Date.now() - startedAt };
  }

  private solver(name: SolverName): SatSolver {
    let solver = this.solvers.get(name);
    if (solver === undefined) {
      solver = this.solverFor(name);
      this.solvers.set(name, solver);
    }
    return solver;
  }
}

/**
 * How long a build stopped for a cancel waits for the signal: the cancel reaches this thread's
 * listener as soon as the event loop turns, so this only bounds a lost message.
 */
const CANCEL_HEARD_WITHIN_MS = 2000;

/** Resolves once `signal` has fired, or after `ms`. */
async function abortedWithin(signal: AbortSignal, ms: number): Promise<void> {
  if (signal.aborted) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

function outcome<S>(result: HorizonResult<S>, startedAt: number): HorizonRunOutcome {
  const stats = {
    vars: result.stats.vars,
    clauses: result.stats.clauses,
    solver: result.stats.solver,
    solverMs: Math.round(result.stats.solverMs),
    encodeMs: Math.round(result.stats.encodeMs),
    ...(result.stats.conflicts === undefined ? {} : { conflicts: result.stats.conflicts }),
    ...(result.stats.preset === undefined ? {} : { preset: result.stats.preset }),
    ...(result.stats.rounds === undefined ? {} : { rounds: result.stats.rounds }),
    ...solverUsageOf(result.stats),
  };
  const base = { startedAt, ms: Date.now() - startedAt, stats };
  switch (result.result) {
    case 'sat':
      return { ...base, result: 'sat', plan: result.plan, planLength: result.planLength };
    case 'unsat':
      return { ...base, result: 'unsat' };
    case 'unknown':
      return { ...base, result: 'unknown', reason: result.reason };
    case 'cancelled':
      return { ...base, result: 'cancelled' };
  }
}
