import { type JobsOptions, type MetricsOptions, MetricsTime } from 'bullmq';

import { MAX_PORTFOLIO, MAX_PRIORITY } from './job-request.schema.js';

/**
 * Options of every horizon job: a few attempts with backoff (a worker shutting down hands its
 * horizons back; a deliberate cancel is final), and finished jobs kept for a while for the queue
 * UI, then removed.
 */
export const HORIZON_JOB_OPTIONS: JobsOptions = {
  attempts: 4,
  backoff: { type: 'exponential', delay: 200 },
  removeOnComplete: { age: 3600, count: 10_000 },
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

/** Options of every report job: removed as soon as the coordinator has applied it. */
export const REPORT_JOB_OPTIONS: JobsOptions = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 100 },
  removeOnComplete: true,
  removeOnFail: { age: 24 * 3600, count: 10_000 },
};

/**
 * BullMQ's metrics, for every worker of both queues: only a worker with them counts the jobs it
 * completes or fails, the counts behind `bullmq_job_completed_total` and `bullmq_job_failed_total`.
 * The exporter reads only the totals, so the per-minute history BullMQ keeps beside them is short.
 */
export const WORKER_METRICS: MetricsOptions = { maxDataPoints: MetricsTime.ONE_HOUR };

/**
 * BullMQ's priority (1 runs first) for a job's `options.priority` (0..100, higher runs first).
 * Every horizon job gets one, since BullMQ runs unprioritized jobs before all prioritized ones.
 */
export function bullPriority(priority = 0): number {
  return MAX_PRIORITY + 1 - priority;
}

/**
 * BullMQ's priority of a portfolio's sibling of rank `sibling`: after every horizon of every job
 * (docs/farm.md#portfolio), the first-ranked siblings of all jobs before the second-ranked.
 */
export function siblingPriority(sibling: number): number {
  return SIBLING_PRIORITY_BASE + sibling;
}

/** Above every `bullPriority`, far below BullMQ's largest (2^21). */
export const SIBLING_PRIORITY_BASE = 1000;

/** The BullMQ priorities siblings are queued at, one per rank. */
export const SIBLING_PRIORITIES: readonly number[] = Array.from({ length: MAX_PORTFOLIO - 1 }, (_, i) =>
  siblingPriority(i + 1),
);

/** What `untakenHorizons` counts of a queue. */
export interface HorizonQueueCounts {
  getJobCounts(...types: string[]): Promise<Record<string, number>>;
  getCountsPerPriority(priorities: number[]): Promise<Record<string, number>>;
}

/**
 * Horizons queued that no worker took yet: the jobs' own (`primaries`) apart from portfolio
 * siblings, which run only on slots no horizon wants, so neither the fair-share gate nor a
 * worker's sibling counts them as work waiting.
 */
export async function untakenHorizons(
  queue: HorizonQueueCounts,
): Promise<{ primaries: number; siblings: number; active: number }> {
  const [counts, perPriority] = await Promise.all([
    queue.getJobCounts('waiting', 'prioritized', 'active'),
    queue.getCountsPerPriority([...SIBLING_PRIORITIES]),
  ]);
  const siblings = Object.values(perPriority).reduce((sum, n) => sum + n, 0);
  const untaken = (counts.waiting ?? 0) + (counts.prioritized ?? 0);
  return { primaries: Math.max(0, untaken - siblings), siblings, active: counts.active ?? 0 };
}
