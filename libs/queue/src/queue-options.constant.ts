import { type JobsOptions, type MetricsOptions, MetricsTime } from 'bullmq';

import { MAX_PRIORITY } from './job-request.schema.js';

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
