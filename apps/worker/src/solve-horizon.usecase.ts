import {
  type HorizonTask,
  type HorizonTaskProgress,
  type HorizonTaskResult,
  proofOf,
  solverUsageOf,
} from '@satfarm/engine';
import type { FinishedReport, HorizonJob, HorizonProgress } from '@satfarm/queue';

/** What one horizon's run produced: a finished report without its routing fields. */
export type HorizonRunOutcome = Omit<
  FinishedReport,
  'kind' | 'jobId' | 'game' | 't' | 'worker' | 'cancelLatencyMs'
>;

/** Where a horizon runs: a `HorizonThreadPool`, off the worker's event loop. */
export interface HorizonRunner {
  run(
    task: HorizonTask,
    signal?: AbortSignal,
    onProgress?: (progress: HorizonTaskProgress) => void,
  ): Promise<HorizonTaskResult>;
}

/**
 * Solves one horizon job on `runner`: the job's remaining time (its deadline, or a patient
 * probe's limit) becomes the run's timeout, and the result becomes a finished report's fields.
 * Aborting `signal` stops the build or kills the solver; the outcome is then `cancelled`. A
 * formula growing past `maxFormulaBytes` ends `unknown`, reason `formula-limit`. A cube of a
 * split horizon (`job.cube`) is solved as `solveCube` does: UNSAT at once when its lower bound
 * exceeds its horizon, else its instance at its own horizon; its plan is the cube's, which the
 * coordinator joins. Rejects with `VerificationError` or `InputError` when no retry can help.
 */
export class SolveHorizonUseCase {
  constructor(
    private readonly runner: HorizonRunner,
    /** The most bytes one formula may take (4 a literal); undefined: none. */
    private readonly maxFormulaBytes?: number,
  ) {}

  async execute(
    job: HorizonJob,
    signal: AbortSignal,
    onProgress?: (progress: HorizonProgress) => void,
  ): Promise<HorizonRunOutcome> {
    const startedAt = Date.now();
    const untilDeadline = job.deadline === undefined ? undefined : job.deadline - startedAt;
    const timeoutMs =
      job.limitMs === undefined ? untilDeadline : Math.min(job.limitMs, untilDeadline ?? job.limitMs);
    const unbuilt = {
      vars: 0,
      clauses: 0,
      solver: job.solver,
      solverMs: 0,
      encodeMs: 0,
      unbuilt: true as const,
    };
    const { cube } = job;
    // A cube is solved as `solveCube` solves it: refuted by its bound alone, else its own horizon.
    if (cube !== undefined && cube.lowerBound > cube.t) {
      return { result: 'unsat', startedAt, ms: 0, stats: unbuilt };
    }
    if (timeoutMs !== undefined && timeoutMs <= 0) {
      return { result: 'unknown', reason: 'timeout', startedAt, ms: 0, stats: unbuilt };
    }
    const result = await this.runner.run(
      {
        game: job.game,
        ...(cube === undefined
          ? { instance: job.instance, instanceKey: job.jobId }
          : { instance: cube.instance, instanceKey: `${job.jobId}.c${cube.index}`, parsed: true as const }),
        solver: job.solver,
        run: {
          t: cube?.t ?? job.t,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          ...(job.encoding === undefined ? {} : { encoding: job.encoding }),
          ...(job.preset === undefined ? {} : { preset: job.preset }),
          ...(job.seed === undefined ? {} : { seed: job.seed }),
          ...(this.maxFormulaBytes === undefined ? {} : { maxFormulaBytes: this.maxFormulaBytes }),
          ...(job.unique && cube === undefined ? { unique: true } : {}),
          // Certified: the thread's solver writes a proof, drat-trim checks it (docs/solvers.md#certified-answers).
          ...(job.proofMaxBytes === undefined ? {} : { proof: { maxBytes: job.proofMaxBytes } }),
        },
      },
      signal,
      onProgress === undefined
        ? undefined
        : ({ conflicts, vars, clauses, solver }) => {
            if (conflicts !== undefined)
              onProgress({ ms: Date.now() - startedAt, conflicts, vars, clauses, solver });
          },
    );
    return outcomeOf(result, startedAt);
  }
}

function outcomeOf(result: HorizonTaskResult, startedAt: number): HorizonRunOutcome {
  const stats = {
    vars: result.stats.vars,
    clauses: result.stats.clauses,
    solver: result.stats.solver,
    solverMs: Math.round(result.stats.solverMs),
    encodeMs: Math.round(result.stats.encodeMs),
    ...(result.stats.conflicts === undefined ? {} : { conflicts: result.stats.conflicts }),
    ...(result.stats.preset === undefined ? {} : { preset: result.stats.preset }),
    ...(result.stats.rounds === undefined ? {} : { rounds: result.stats.rounds }),
    ...(result.stats.unbuilt === undefined ? {} : { unbuilt: result.stats.unbuilt }),
    ...solverUsageOf(result.stats),
    ...proofOf(result.stats),
  };
  const base = { startedAt, ms: Date.now() - startedAt, stats };
  switch (result.result) {
    case 'sat':
      return {
        ...base,
        result: 'sat',
        plan: result.plan,
        planLength: result.planLength,
        ...(result.unique === undefined ? {} : { unique: result.unique }),
        ...(result.secondSolution === undefined ? {} : { secondSolution: result.secondSolution }),
        ...(result.uniqueProof === undefined
          ? {}
          : { uniqueProof: proofOf({ proof: result.uniqueProof }).proof! }),
      };
    case 'unsat':
      return { ...base, result: 'unsat' };
    case 'unknown':
      return { ...base, result: 'unknown', reason: result.reason };
    case 'cancelled':
      return { ...base, result: 'cancelled' };
  }
}
