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
  /** Game lookup (the registry by default; tests pass their own games). */
  games?: GameLookup;
}

/** Injection token of the `FarmAppOptions`. */
export const FARM_APP_OPTIONS = Symbol('FARM_APP_OPTIONS');
