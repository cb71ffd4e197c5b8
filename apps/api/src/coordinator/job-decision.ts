import type { CancelReason } from '@satfarm/queue';

import type { JobRecord } from './job-record.js';
import type { JobTransition } from './job-transitions.js';

/** A decision on a stored job: the transition it makes, or undefined for none. */
export type Decide = (record: JobRecord, now: number) => JobTransition | undefined;

/**
 * Runs `decide` on the stored job (compare-and-set) and carries out what it decided; `decidedAt`
 * is when the horizons it dominates became useless (`SweepCoordinator`'s `apply`).
 */
export type ApplyDecision = (
  jobId: string,
  reason: CancelReason,
  decide: Decide,
  decidedAt?: number,
) => Promise<void>;
