import { defaultMaxFormulaBytes } from '@satfarm/engine';
import type { FarmConfig } from '@satfarm/queue';
import type { LaunchMode } from '@satfarm/solver';

/** How a worker process (or the worker part of `satfarm serve`) runs. */
export interface WorkerModuleOptions {
  redisUrl: string;
  prefix: string;
  /** Solver slots: horizons solved at once. */
  slots: number;
  /** A module exporting the games' `lookup` (`importGameLookup`); the registry when unset. */
  gamesModule?: string;
  /** Limits of every solver process this worker starts (`SATFARM_SOLVER_CPU_SECONDS`, `_MEMORY_MIB`). */
  solverLimits?: { cpuSeconds?: number; memoryMiB?: number };
  /**
   * The most memory one horizon's formula may take (`SATFARM_FORMULA_MEMORY_MIB`; default: an
   * eighth of the memory the process may use, shared among the slots).
   */
  formulaMemoryMiB?: number;
  /** How solver processes start (`SATFARM_SOLVER_LAUNCH`; the spawn host by default). */
  solverLaunch?: LaunchMode;
  /** How long a claim on a horizon lasts without renewal (`SATFARM_HORIZON_LOCK_SEC`; BullMQ's 30 s by default). */
  horizonLockMs?: number;
}

/** Injection token of the `WorkerModuleOptions`. */
export const WORKER_OPTIONS = Symbol('WORKER_OPTIONS');

/**
 * A worker's options from the farm's settings: every process that runs horizons (`satfarm
 * worker`, `serve`'s slots, the specs' workers) takes them from here, so that none misses one.
 * The formula memory is resolved here (`defaultMaxFormulaBytes` when unset), so banners can
 * name it.
 */
export function workerOptionsOf(
  config: FarmConfig,
  redisUrl: string,
  slots: number,
): Omit<WorkerModuleOptions, 'gamesModule'> & { formulaMemoryMiB: number } {
  return {
    redisUrl,
    prefix: config.prefix,
    slots,
    solverLimits: config.solverLimits,
    formulaMemoryMiB: config.formulaMemoryMiB ?? Math.floor(defaultMaxFormulaBytes(slots) / 2 ** 20),
    solverLaunch: config.solverLaunch,
    horizonLockMs: config.horizonLockMs,
  };
}
