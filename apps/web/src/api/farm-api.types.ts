import type { FarmOverview, FarmWorker } from '@satfarm/queue';

// The API's shapes come from @satfarm/queue; what the farm's workers add (docs/batches.md) is
// stated here until the overview's schema carries it.

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
