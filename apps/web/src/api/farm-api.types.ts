import type { FarmOverview, FarmWorker, JobResource } from '@satfarm/queue';

import type { BatchCounts } from '../model/batch-progress.model';

// The shapes of the batch workflow's API as docs/batches.md states them, for the page.

/** A job as the lists give it: the resource (drawings left out) with the instance's summary. */
export type JobListing = JobResource & { summary?: string };

/** A batch summary (`GET /v1/batches`, docs/batches.md). */
export interface BatchSummary {
  batchId: string;
  createdAt: string;
  label?: string;
  key?: string;
  size: number;
  counts: BatchCounts;
  done: boolean;
  finishedAt: string | null;
}

/** `GET /v1/batches/:id`: the summary and the batch's job ids. */
export type BatchDetail = BatchSummary & { jobIds: string[] };

/** The `batch` event on `/progress`. */
export interface BatchEventPayload {
  batchId: string;
  counts: BatchCounts;
  done: boolean;
}

/** A horizon a worker runs now (`GET /v1/farm`). */
export interface WorkerHorizon {
  jobId: string;
  t: number;
  startedAt: string;
}

/** A worker of `GET /v1/farm`, with its slots and the horizons it runs, when the farm says. */
export type WorkerView = FarmWorker & { slots?: number; horizons?: WorkerHorizon[] };

/** `GET /v1/farm` with its workers' slots. */
export type FarmView = Omit<FarmOverview, 'workers'> & { workers: WorkerView[] };

/** A page of a list of the API. */
export interface Paged {
  offset: number;
  limit: number;
}
