import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';

import {
  bullPriority,
  type CancelReason,
  type FarmKeys,
  HORIZON_JOB_OPTIONS,
  type HorizonCancel,
  type HorizonJob,
  horizonJobIdOf,
  JobName,
  siblingPriority,
} from '@satfarm/queue';

import type { FairShareGate } from './fair-share.gate.js';

/** The states of a horizon job that no worker has taken yet. */
const UNTAKEN = new Set<string>(['waiting', 'prioritized', 'delayed', 'waiting-children']);

/** A horizon to queue, with its job's priority and the tenant it is shared out to. */
export interface HorizonToQueue {
  payload: HorizonJob;
  priority: number;
  /**
   * Who the slots are shared between (docs/farm.md, "Fair share"): the job's API key and its
   * batch, or `<key>/jobs` for a job of no batch.
   */
  tenant: string;
}

/**
 * Adds horizons to the BullMQ queue, one `addBulk` with deterministic ids (adding twice is a no-op).
 * A portfolio's siblings go after every job's own horizons (`siblingPriority`).
 */
export async function addHorizons(queue: Queue, horizons: HorizonToQueue[]): Promise<void> {
  if (horizons.length === 0) return;
  await queue.addBulk(
    horizons.map(({ payload, priority }) => ({
      name: JobName.horizon,
      data: payload,
      opts: {
        ...HORIZON_JOB_OPTIONS,
        jobId: horizonJobIdOf(payload),
        priority: payload.sibling === undefined ? bullPriority(priority) : siblingPriority(payload.sibling),
      },
    })),
  );
}

/**
 * Hands horizons to the workers and takes them back: queueing goes through the fair-share gate
 * (docs/farm.md, "Fair share"), or straight to the queue without one; either way queueing twice is
 * a no-op. Cancelling publishes on the channel every worker listens on (running horizons die) and
 * removes the ones still pending or waiting. The cancel markers that stop a horizon which starts
 * after this are written with the job's state (see `JobStore.update`).
 */
export class HorizonDispatch {
  constructor(
    private readonly queue: Queue,
    private readonly publisher: Redis,
    private readonly keys: FarmKeys,
    private readonly gate?: FairShareGate,
  ) {}

  /**
   * Queues horizons. A portfolio's siblings skip the gate: they take only slots that no horizon
   * wants, so they are nobody's share.
   */
  async enqueue(horizons: HorizonToQueue[]): Promise<void> {
    if (horizons.length === 0) return;
    if (this.gate === undefined) return addHorizons(this.queue, horizons);
    const siblings = horizons.filter((h) => h.payload.sibling !== undefined);
    const own = horizons.filter((h) => h.payload.sibling === undefined);
    await Promise.all([
      addHorizons(this.queue, siblings),
      own.length === 0 ? undefined : this.gate.hold(own).then(() => this.gate!.release()),
    ]);
  }

  /**
   * Tells every worker to abort these horizons if it runs them (a repeated message is harmless).
   * The cancel path starts here (docs/farm.md#one-horizon): the channel, each worker's
   * `HorizonCancelListener`, BullMQ's `cancelJob`, the processor's signal, `HorizonThreadPool.run`
   * (the build's stop flag, the solver's kill), a `cancelled` report with its latency.
   */
  async stopRunning(horizonJobIds: string[], reason: CancelReason, decidedAt: number): Promise<void> {
    if (horizonJobIds.length === 0) return;
    const message: HorizonCancel = { horizonJobIds, reason, decidedAt };
    await this.publisher.publish(this.keys.cancelChannel, JSON.stringify(message));
  }

  /** Removes these horizons from the pending sets and the queue if no worker took them yet. */
  async removeWaiting(horizonJobIds: string[]): Promise<void> {
    await this.gate?.remove(horizonJobIds);
    // An active job is locked and stays (its worker was told to stop). A finished one stays too:
    // a worker that saw the cancel marker may have failed its horizon ('cancelled') before this
    // runs, and that record is what the queue UI shows; only jobs no worker took yet go.
    await Promise.all(
      horizonJobIds.map(async (id) => {
        if (UNTAKEN.has(await this.queue.getJobState(id))) await this.queue.remove(id).catch(() => 0);
      }),
    );
  }
}
