import type { FarmConfig } from '@satfarm/queue';

import type { GameLookup } from './coordinator/sweep-coordinator.js';

/** How an API process runs: its settings, its Redis, and the worker slots it hosts itself. */
export interface FarmAppOptions {
  config: FarmConfig;
  redisUrl: string;
  /** Solver slots run in this process too (`satfarm serve`); 0 for an API alone. */
  workerSlots: number;
  /** Horizons in flight per job when a job does not say. */
  defaultParallelism?: number;
  /**
   * A module exporting the game lookup as `lookup` (a path or URL), for farms with games beyond the
   * registry (the benchmarks' and tests' `staircase`): the API and its worker thread import it.
   */
  gamesModule?: string;
}

/** The options the application runs with: the games module imported. */
export interface ResolvedFarmAppOptions extends FarmAppOptions {
  /** Game lookup (the registry by default). */
  games?: GameLookup;
}

/** Injection token of the `FarmAppOptions`. */
export const FARM_APP_OPTIONS = Symbol('FARM_APP_OPTIONS');
