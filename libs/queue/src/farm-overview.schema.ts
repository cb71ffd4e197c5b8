import { z } from 'zod';

const count = z.number().int().min(0);

/** Jobs of one BullMQ queue by state, as `Queue.getJobCounts` reads them. */
export const QueueCountsSchema = z.object({
  waiting: count,
  prioritized: count,
  delayed: count,
  active: count,
  completed: count,
  failed: count,
});
export type QueueCountsView = z.infer<typeof QueueCountsSchema>;

/** One worker process connected to the horizons queue. */
export const FarmWorkerSchema = z.object({
  /** `host:pid` of the process (the name it gives BullMQ). */
  name: z.string(),
  /** Its Redis client address. */
  addr: z.string(),
  /** Seconds since it connected. */
  ageSec: count,
  /** Seconds since its connection last ran a command. */
  idleSec: count,
  /** How many horizons it runs at once, when it says. */
  slots: count.optional(),
  /** The horizons it is running now. */
  horizons: z.array(
    z.object({
      jobId: z.string(),
      t: count,
      /** When it took the horizon (ISO 8601). */
      startedAt: z.string(),
      /** The job's instance in one line (`JobResource.summary`). */
      summary: z.string().optional(),
    }),
  ),
});
export type FarmWorker = z.infer<typeof FarmWorkerSchema>;

/**
 * The body of `GET /v1/farm`: the farm at a glance, read from Redis when asked (so the same on
 * every API replica).
 */
export const FarmOverviewSchema = z.object({
  /** When it was read (ISO 8601). */
  at: z.string(),
  /**
   * Horizons waiting for a solver slot: those the fair-share gate holds back (`pending`) and the
   * waiting, prioritized and delayed horizon jobs (docs/farm.md, "Fair share").
   */
  queueDepth: count,
  /** Horizons the fair-share gate holds back, not yet in the queue. */
  pending: count,
  /** Horizons being solved now, farm-wide. */
  activeSolvers: count,
  /** Worker processes taking horizons now. */
  workers: z.array(FarmWorkerSchema),
  /** Jobs not finished yet, by status. */
  jobs: z.object({ queued: count, running: count }),
  queues: z.object({ horizons: QueueCountsSchema, reports: QueueCountsSchema }),
});
export type FarmOverview = z.infer<typeof FarmOverviewSchema>;
