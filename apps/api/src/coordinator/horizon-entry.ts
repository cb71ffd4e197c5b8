import { horizonPreset, horizonRecord, type SweepState } from '@satfarm/sweep';

import type { HorizonToQueue } from './horizon.dispatch.js';
import type { JobMeta } from './job-record.js';
import { races } from './race.js';

/** The queue entry of horizon `t`, as `sweep` (its lower bound, the run's limit) has it queued. */
export function horizonEntry(meta: JobMeta, instance: unknown, t: number, sweep: SweepState): HorizonToQueue {
  const lower = sweep.lower;
  const record = horizonRecord(sweep, t);
  return {
    payload: {
      jobId: meta.id,
      game: meta.game,
      instance,
      t,
      solver: meta.options.solver,
      ...(meta.deadline === undefined ? {} : { deadline: meta.deadline }),
      ...(meta.options.unique ? { unique: true } : {}),
      // Jobs stored before presets existed have no such option: off.
      ...(meta.options.presets === true ? { preset: horizonPreset(t, lower, meta.satFrom) } : {}),
      ...(record?.limitMs === undefined ? {} : { limitMs: record.limitMs }),
      ...(record?.run === undefined ? {} : { run: record.run }),
      ...(meta.options.encoding === undefined ? {} : { encoding: meta.options.encoding }),
      ...(meta.options.certify === undefined
        ? {}
        : { proofMaxBytes: meta.options.certify.proofLimitMiB * 1024 * 1024 }),
      // A racing horizon names its seed, so its reports name its configuration.
      ...(races(meta) ? { seed: 0 } : {}),
    },
    priority: meta.options.priority,
    tenant: tenantOf(meta),
  };
}

/** The tenant a job's horizons are shared out to (docs/farm.md#fair-share). */
export function tenantOf(meta: Pick<JobMeta, 'owner' | 'batchId'>): string {
  return `${meta.owner ?? 'anonymous'}/${meta.batchId ?? 'jobs'}`;
}
