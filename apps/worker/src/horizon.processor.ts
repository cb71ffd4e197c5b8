import { type Job, UnrecoverableError } from 'bullmq';
import type { Redis } from 'ioredis';

import { VerificationError } from '@satfarm/engine';
import { InputError } from '@satfarm/games';
import { type FarmKeys, HorizonJobSchema, parsePayload, type PayloadError } from '@satfarm/queue';

import { readAbortReason } from './horizon-abort.reason.js';
import type { HorizonReportSender } from './horizon-report.sender.js';
import type { SolveHorizonUseCase } from './solve-horizon.usecase.js';

/** What a horizon processor needs. */
export interface HorizonProcessorDeps {
  redis: Redis;
  keys: FarmKeys;
  reports: HorizonReportSender;
  solveHorizon: SolveHorizonUseCase;
  /** This worker process's name in reports (host:pid). */
  worker: string;
  /** A horizon still running after this long is reported started (default 50 ms). */
  startedReportDelayMs?: number;
}

const STARTED_REPORT_DELAY_MS = 50;

/** What a completed horizon job keeps as its return value (the full answer went as a report). */
export interface HorizonJobSummary {
  result: 'sat' | 'unsat' | 'unknown';
  ms: number;
}

/**
 * The BullMQ processor of horizon jobs: re-validates the payload, refuses a horizon cancelled
 * before it started, reports the start, solves (the abort signal reaches the solver), and reports
 * the outcome. A deliberate cancel or a failure that a retry cannot fix is final
 * (`UnrecoverableError`); an interruption (shutdown) is thrown as a plain error, so the horizon is
 * retried, by this worker or another.
 */
export function createHorizonProcessor(deps: HorizonProcessorDeps) {
  return async (
    job: Job,
    _token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<HorizonJobSummary> => {
    const abort = signal ?? new AbortController().signal;
    let data;
    try {
      data = parsePayload(HorizonJobSchema, job.data, 'data');
    } catch (err) {
      throw new UnrecoverableError((err as PayloadError).message);
    }
    const attempt = job.attemptsMade;
    const [jobMarker, horizonMarker] = await deps.redis.mget(
      deps.keys.cancelled(data.jobId),
      deps.keys.cancelled(job.id!),
    );
    if (jobMarker !== null || horizonMarker !== null)
      throw new UnrecoverableError('cancelled before it started');

    const route = { jobId: data.jobId, game: data.game, t: data.t, worker: deps.worker };
    const startedAt = Date.now();
    // Horizons that end quickly need no "started" report: it would cost the coordinator a round
    // of work per horizon for a state nobody sees.
    let started: Promise<void> | undefined;
    const startTimer = setTimeout(() => {
      started = deps.reports.send({ kind: 'started', ...route, at: startedAt }, attempt);
    }, deps.startedReportDelayMs ?? STARTED_REPORT_DELAY_MS);
    const startedReported = async (): Promise<void> => {
      clearTimeout(startTimer);
      await started;
    };
    let outcome;
    try {
      outcome = await deps.solveHorizon.execute(data, abort);
    } catch (err) {
      await startedReported();
      if (abort.aborted && readAbortReason(abort.reason).kind === 'interrupted')
        throw interrupted(abort.reason);
      const message = err instanceof Error ? err.message : String(err);
      const retryable = !(err instanceof VerificationError || err instanceof InputError);
      if (retryable && attempt + 1 < (job.opts.attempts ?? 1)) throw err;
      await deps.reports.send({ kind: 'failed', ...route, error: message }, attempt);
      throw new UnrecoverableError(message);
    }
    await startedReported();
    if (outcome.result === 'cancelled') {
      const reason = readAbortReason(abort.reason);
      if (reason.kind === 'interrupted') throw interrupted(abort.reason);
      const cancelLatencyMs = Math.max(0, Date.now() - reason.decidedAt);
      await deps.reports.send({ kind: 'finished', ...route, ...outcome, cancelLatencyMs }, attempt);
      throw new UnrecoverableError('cancelled');
    }
    await deps.reports.send({ kind: 'finished', ...route, ...outcome }, attempt);
    return { result: outcome.result, ms: outcome.ms };
  };
}

function interrupted(reason: unknown): Error {
  return new Error(
    `interrupted (${readAbortReason(reason).kind === 'interrupted' ? String(reason) : 'cancel'}); retried`,
  );
}
