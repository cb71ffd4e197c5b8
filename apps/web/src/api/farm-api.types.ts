import type { FarmOverview, FarmWorker } from '@satfarm/queue';

/** A horizon a worker runs now (`GET /v1/farm`). */
export type WorkerHorizon = FarmWorker['horizons'][number];

/** A worker of `GET /v1/farm`, with its slots and the horizons it runs. */
export type WorkerView = FarmWorker;

/** `GET /v1/farm`. */
export type FarmView = FarmOverview;

/** A page of a list of the API. */
export interface Paged {
  offset: number;
  limit: number;
}
