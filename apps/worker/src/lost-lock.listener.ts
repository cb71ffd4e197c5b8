/**
 * The abort reason of a horizon whose lock this worker lost. Not a cancel: the processor hands
 * the horizon back (which fails harmlessly when it is another worker's now) and reports nothing.
 */
export const LOST_LOCK_ABORT_REASON = 'lost the horizon lock';

/** What `abortOnLostLocks` needs of a BullMQ worker. */
export interface LockingWorker {
  on(event: 'lockRenewalFailed', listener: (jobIds: string[]) => void): unknown;
  /** Aborts a running job's processor signal with `reason`. */
  cancelJob(jobId: string, reason?: string): boolean;
}

/**
 * Stops the horizons whose locks BullMQ could not renew because they are no longer this worker's:
 * the lock expired (the worker was cut off from Redis, or its event loop hung, for longer than
 * the lock lasts) and the stalled check has given the horizon to another worker, or will. This
 * worker can no longer complete the horizon job, so its solver is killed rather than left to run
 * beside the new holder's, and the new holder alone reports the answer.
 */
export function abortOnLostLocks(worker: LockingWorker): void {
  worker.on('lockRenewalFailed', (horizonJobIds: string[]) => {
    for (const id of horizonJobIds) worker.cancelJob(id, LOST_LOCK_ABORT_REASON);
  });
}
