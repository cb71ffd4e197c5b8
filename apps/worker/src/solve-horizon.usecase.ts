import {
  type HorizonTask,
  type HorizonTaskProgress,
  type HorizonTaskResult,
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
 * formula growing past `maxFormulaBytes` ends `unknown`, reason `formula-limit`. Rejects with
 * `VerificationError` or `InputError` when no retry can help.
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
    if (timeoutMs !== undefined && timeoutMs <= 0) {
      const stats = {
        vars: 0,
        clauses: 0,
        solver: job.solver,
        solverMs: 0,
        encodeMs: 0,
        unbuilt: true as const,
      };
      return { result: 'unknown', reason: 'timeout', startedAt, ms: 0, stats };
    }
    const result = await this.runner.run(
      {
        game: job.game,
        instance: job.instance,
        instanceKey: job.jobId,
        solver: job.solver,
        run: {
          t: job.t,
          ...(timeoutMs === undefined ? {} : { timeoutMs }),
          ...(job.encoding === undefined ? {} : { encoding: job.encoding }),
          ...(job.preset === undefined ? {} : { preset: job.preset }),
          ...(job.seed === undefined ? {} : { seed: job.seed }),
          ...(this.maxFormulaBytes === undefined ? {} : { maxFormulaBytes: this.maxFormulaBytes }),
          ...(job.unique ? { unique: true } : {}),
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
      };
    case 'unsat':
      return { ...base, result: 'unsat' };
    case 'unknown':
      return { ...base, result: 'unknown', reason: result.reason };
    case 'cancelled':
      return { ...base, result: 'cancelled' };
  }
}
