import { EventEmitter } from 'node:events';

import { describe, expect, it } from 'vitest';

import { readAbortReason } from './horizon-abort.reason.js';
import { abortOnLostLocks, LOST_LOCK_ABORT_REASON } from './lost-lock.listener.js';

/** A worker's events and the aborts asked of it, as BullMQ's worker takes them. */
class RecordingWorker extends EventEmitter {
  readonly aborted: Array<{ jobId: string; reason?: string }> = [];

  cancelJob(jobId: string, reason?: string): boolean {
    this.aborted.push({ jobId, reason });
    return true;
  }
}

describe(abortOnLostLocks.name, () => {
  it('aborts each horizon whose lock renewal failed, and only those', () => {
    const worker = new RecordingWorker();
    abortOnLostLocks(worker);
    worker.emit('locksRenewed', { count: 1, jobIds: ['j1.t2'] });
    worker.emit('lockRenewalFailed', ['j1.t3', 'j2.t5.r2']);
    expect(worker.aborted).toEqual([
      { jobId: 'j1.t3', reason: LOST_LOCK_ABORT_REASON },
      { jobId: 'j2.t5.r2', reason: LOST_LOCK_ABORT_REASON },
    ]);
  });

  it('aborts as an interruption, not a cancel: the horizon is handed back and nothing is reported', () => {
    expect(readAbortReason(LOST_LOCK_ABORT_REASON)).toEqual({
      kind: 'interrupted',
      detail: LOST_LOCK_ABORT_REASON,
    });
  });
});
