import { DelayedError, type Job, UnrecoverableError } from 'bullmq';

import { VerificationError } from '@satfarm/engine';
import { InputError } from '@satfarm/games';
import {
  type FarmKeys,
  type HorizonJob,
  HorizonJobSchema,
  type HorizonProgress,
  parsePayload,
  type PayloadError,
  type StartedReport,
} from '@satfarm/queue';

import { readAbortReason } from './horizon-abort.reason.js';
import type { HorizonReportSender } from './horizon-report.sender.js';
import type { SolveHorizonUseCase } from './solve-horizon.usecase.js';

/** What a horizon processor needs. */
export interface HorizonProcessorDeps {
  /** Where the cancel markers are read (a Redis connection). */
  redis: { mget(...keys: string[]): Promise<Array<string | null>> };
  keys: FarmKeys;
  reports: Pick<HorizonReportSender, 'send'>;
  solveHorizon: Pick<SolveHorizonUseCase, 'execute'>;
  /** This worker process's name in reports (host:pid). */
  worker: string;
  /** A horizon still running after this long is reported started (default 50 ms). */
  startedReportDelayMs?: number;
  /** Least time between two progress updates of one horizon (default 1 s). */
  progressIntervalMs?: number;
  /** True once the worker is shutting down: a horizon that starts then is handed back unsolved. */
  draining?: () => boolean;
  /**
   * Whether horizons of any job wait for a slot (`untakenHorizons`): a portfolio's sibling that
   * sees them waiting at two checks in a row gives its slot back. None: siblings never give way.
   */
  horizonsWaiting?: () => Promise<boolean>;
  /** How often a running sibling asks `horizonsWaiting` (default 500 ms). */
  giveWayCheckMs?: number;
}

/** What the processor uses of a BullMQ job. */
export type HorizonJobHandle = Pick<
  Job,
  'id' | 'data' | 'attemptsMade' | 'opts' | 'updateProgress' | 'moveToDelayed'
>;

const STARTED_REPORT_DELAY_MS = 50;
const PROGRESS_INTERVAL_MS = 1000;
const GIVE_WAY_CHECK_MS = 500;

/** What a completed horizon job keeps as its return value (the full answer went as a report). */
export interface HorizonJobSummary {
  result: 'sat' | 'unsat' | 'unknown';
  ms: number;
  /** The worker process that solved it (host:pid), for the queue UI and operators. */
  worker: string;
}

/**
 * The BullMQ processor of horizon jobs: re-validates the payload, refuses a horizon cancelled
 * before it started, reports the start, solves (the abort signal reaches the solver), and reports
 * the outcome. A deliberate cancel or a failure that a retry cannot fix is final
 * (`UnrecoverableError`). An interruption (the worker shutting down) hands the horizon back: it
 * goes back to the queue at its priority at once, without spending one of its attempts, so a
 * horizon survives any number of scale-ins and rolling updates.
 */
export function createHorizonProcessor(deps: HorizonProcessorDeps) {
  return async (
    job: HorizonJobHandle,
    token: string | undefined,
    signal: AbortSignal | undefined,
  ): Promise<HorizonJobSummary> => {
    const abort = signal ?? new AbortController().signal;
    // A job can still be fetched in the instant between close() and the abort of running jobs.
    if (deps.draining?.()) return handBack(job, token, 'shutdown');
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

    const route = {
      jobId: data.jobId,
      game: data.game,
      t: data.t,
      worker: deps.worker,
      run: data.run ?? 1,
      ...(data.sibling === undefined ? {} : { sibling: data.sibling }),
      ...(data.cube === undefined ? {} : { cube: data.cube.index }),
      ...(data.sibling === undefined && data.seed === undefined ? {} : { config: configOf(data) }),
    };
    const startedAt = Date.now();
    // Horizons that end quickly need no "started" report: it would cost the coordinator a round
    // of work per horizon for a state nobody sees.
    let started: Promise<void> | undefined;
    const startedReport: StartedReport = { kind: 'started', ...route, at: startedAt };
    const startedDelay = deps.startedReportDelayMs ?? STARTED_REPORT_DELAY_MS;
    const startTimer = setTimeout(() => {
      started = deps.reports.send(startedReport, attempt, data.run);
    }, startedDelay);
    const startedReported = async (): Promise<void> => {
      clearTimeout(startTimer);
      await started;
    };
    // The solver's conflicts become the job's progress, at most once per interval, so that
    // dashboards see the search move; the last update lands before the outcome is reported.
    let progressed = Date.now();
    let lastProgress: Promise<void> = Promise.resolve();
    const interval = deps.progressIntervalMs ?? PROGRESS_INTERVAL_MS;
    const onProgress = (progress: HorizonProgress): void => {
      const now = Date.now();
      if (now - progressed < interval) return;
      progressed = now;
      lastProgress = lastProgress.then(() => job.updateProgress(progress)).catch(() => undefined);
    };
    const progressSettled = async (): Promise<void> => {
      progressed = Number.POSITIVE_INFINITY;
      await lastProgress;
    };
    const giveWay = data.sibling === undefined ? undefined : watchForWaitingHorizons(deps);
    const solveSignal = giveWay === undefined ? abort : AbortSignal.any([abort, giveWay.signal]);
    let outcome;
    try {
      outcome = await deps.solveHorizon.execute(data, solveSignal, onProgress);
    } catch (err) {
      await progressSettled();
      await startedReported();
      if (abort.aborted && readAbortReason(abort.reason).kind === 'interrupted')
        return handBack(job, token, abort.reason);
      const message = err instanceof Error ? err.message : String(err);
      // A sibling's failure costs its race nothing, so it is not worth a retry's slot.
      const retryable =
        data.sibling === undefined && !(err instanceof VerificationError || err instanceof InputError);
      if (retryable && attempt + 1 < (job.opts.attempts ?? 1)) throw err;
      await deps.reports.send({ kind: 'failed', ...route, error: message }, attempt, data.run);
      throw new UnrecoverableError(message);
    } finally {
      giveWay?.stop();
    }
    await progressSettled();
    await startedReported();
    if (outcome.result === 'cancelled' && !abort.aborted && giveWay?.signal.aborted) {
      // A sibling that gave its slot back ends without an answer; nothing is lost by it.
      const gaveWay = { ...outcome, result: 'unknown' as const, reason: 'gave-way' };
      await deps.reports.send({ kind: 'finished', ...route, ...gaveWay }, attempt, data.run);
      return { result: 'unknown', ms: outcome.ms, worker: deps.worker };
    }
    if (outcome.result === 'cancelled') {
      const reason = readAbortReason(abort.reason);
      if (reason.kind === 'interrupted') return handBack(job, token, abort.reason);
      const cancelLatencyMs = Math.max(0, Date.now() - reason.decidedAt);
      await deps.reports.send({ kind: 'finished', ...route, ...outcome, cancelLatencyMs }, attempt, data.run);
      throw new UnrecoverableError('cancelled');
    }
    await deps.reports.send({ kind: 'finished', ...route, ...outcome }, attempt, data.run);
    return { result: outcome.result, ms: outcome.ms, worker: deps.worker };
  };
}

/** A sibling's configuration, as the record names it (`configLabel`). */
function configOf(job: HorizonJob): string {
  return `${job.solver}/${job.preset ?? 'default'}/${job.seed ?? 0}`;
}

/**
 * Aborts its signal once horizons have waited at two checks in a row: one waiting at a single
 * check may be taken by an idle slot a moment later.
 */
function watchForWaitingHorizons(deps: HorizonProcessorDeps): {
  signal: AbortSignal;
  stop: () => void;
} {
  const controller = new AbortController();
  const waiting = deps.horizonsWaiting;
  if (waiting === undefined) return { signal: controller.signal, stop: () => undefined };
  let seen = 0;
  let asking = false;
  const timer = setInterval(() => {
    if (asking) return;
    asking = true;
    waiting()
      .then((yes) => {
        seen = yes ? seen + 1 : 0;
        if (seen >= 2) controller.abort('gave way');
      })
      .catch(() => undefined)
      .finally(() => (asking = false));
  }, deps.giveWayCheckMs ?? GIVE_WAY_CHECK_MS);
  return { signal: controller.signal, stop: () => clearInterval(timer) };
}

/**
 * Puts an interrupted horizon back in the queue, unsolved and with its attempts untouched, and
 * tells BullMQ so (`DelayedError`). It goes through the delayed set with no delay rather than
 * straight back to the prioritized set: only that path wakes the workers blocked waiting for
 * work, which would otherwise notice it only at their next poll, seconds later. When the move
 * fails (the lock is lost, Redis is gone) a plain error leaves the job to BullMQ's retry, or to
 * the stalled check of another worker.
 */
async function handBack(job: HorizonJobHandle, token: string | undefined, reason: unknown): Promise<never> {
  const detail = `interrupted (${String(reason)}); handed back`;
  if (token === undefined) throw new Error(detail);
  try {
    await job.moveToDelayed(Date.now(), token);
  } catch {
    throw new Error(detail);
  }
  throw new DelayedError(detail);
}
