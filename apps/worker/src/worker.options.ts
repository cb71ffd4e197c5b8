import type { GameLookup } from './solve-horizon.usecase.js';

/** How a worker process (or the worker part of `satfarm serve`) runs. */
export interface WorkerModuleOptions {
  redisUrl: string;
  prefix: string;
  /** Solver slots: horizons solved at once. */
  slots: number;
  games?: GameLookup;
}

/** Injection token of the `WorkerModuleOptions`. */
export const WORKER_OPTIONS = Symbol('WORKER_OPTIONS');
