import { Worker } from 'node:worker_threads';

import type { StartedReport } from '@satfarm/queue';
import { threadExecArgv } from '@satfarm/engine';

/**
 * What the keeper's thread is told: hold a job's lock (with the token it was taken with, and the
 * job's cancel flag: a shared Int32Array of one element), send a held job's started report after a
 * delay, or let the job go.
 */
export type HorizonLockMessage =
  | { hold: string; token: string; cancel: SharedArrayBuffer }
  | { started: string; report: StartedReport; attempt: number; run?: number; delayMs: number }
  | { release: string };

/** What the keeper's thread is started with. */
export interface HorizonLockThreadData {
  redisUrl: string;
  prefix: string;
  queue: string;
  lockMs: number;
  maxBlockMs: number;
  /** Date.now() of the main thread's last heartbeat (a shared Float64Array of one element). */
  heartbeat: SharedArrayBuffer;
}

/**
 * Longest time the main thread may go without a turn of its event loop while its horizons keep
 * their locks. A formula build holds the loop for seconds (a 100x100 Snake at horizon 197: about
 * 4 s); past this, the main thread is taken for hung and its horizons go to other workers.
 */
export const MAX_BLOCK_MS = 10 * 60 * 1000;

/**
 * Renews the locks of the horizons a worker is solving from a thread of its own. BullMQ renews
 * them with timers of the main thread, which cannot fire while a formula is being built
 * (synchronously): a build longer than half the lock cost the lock, the horizon went back to the
 * queue while it was being solved, and its finished job could not be completed. The thread
 * renews only while the main thread's heartbeat is younger than `MAX_BLOCK_MS`, so a hung
 * process still loses its horizons; it dies with the process, so a killed worker's locks expire as
 * before.
 *
 * The thread also hears the farm's cancel channel, which the main thread's listener cannot while
 * a build holds it: a held horizon named there gets its cancel flag raised (`cancelRequested`), and
 * the build, which asks for it as it grows, stops then rather than when it is done. And it sends a
 * held horizon's started report when asked (`reportStartedAfter`): a build keeps the main thread's
 * timer from firing, and the horizon would show queued until its formula was built.
 */
export class HorizonLockKeeper {
  private readonly thread: Worker;
  private readonly beat: Float64Array;
  private readonly timer: NodeJS.Timeout;
  private readonly started: Promise<void>;
  private readonly cancels = new Map<string, Int32Array>();

  constructor(options: {
    redisUrl: string;
    prefix: string;
    queue: string;
    lockMs: number;
    maxBlockMs?: number;
  }) {
    const heartbeat = new SharedArrayBuffer(Float64Array.BYTES_PER_ELEMENT);
    this.beat = new Float64Array(heartbeat);
    this.beat[0] = Date.now();
    this.thread = new Worker(new URL('./horizon-lock.thread.js', import.meta.url), {
      workerData: {
        redisUrl: options.redisUrl,
        prefix: options.prefix,
        queue: options.queue,
        lockMs: options.lockMs,
        maxBlockMs: options.maxBlockMs ?? MAX_BLOCK_MS,
        heartbeat,
      } satisfies HorizonLockThreadData,
      execArgv: threadExecArgv(),
    });
    this.thread.unref();
    this.started = new Promise<void>((resolve, reject) => {
      this.thread.once('message', () => resolve());
      this.thread.once('exit', () => reject(new Error('the lock keeper thread ended before it was ready')));
    });
    // A worker that does not wait for `ready` must not die of an unhandled rejection.
    this.started.catch(() => undefined);
    this.thread.on('error', (err) => process.stderr.write(`satfarm worker: lock keeper: ${err.message}\n`));
    this.timer = setInterval(() => (this.beat[0] = Date.now()), Math.max(100, options.lockMs / 4));
    this.timer.unref();
  }

  /** Resolves once the thread is connected to Redis and renewing. */
  ready(): Promise<void> {
    return this.started;
  }

  /** Keeps `jobId`'s lock (taken with `token`) and watches for its cancel until `release`. */
  hold(jobId: string, token: string): void {
    this.beat[0] = Date.now();
    const cancel = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    this.cancels.set(jobId, new Int32Array(cancel));
    this.thread.postMessage({ hold: jobId, token, cancel } satisfies HorizonLockMessage);
  }

  /** Whether the cancel channel has named `jobId` since `hold`: readable while the event loop waits. */
  cancelRequested(jobId: string): boolean {
    const flag = this.cancels.get(jobId);
    return flag !== undefined && Atomics.load(flag, 0) === 1;
  }

  /**
   * Sends `report` (the horizon's started report) after `delayMs` unless `jobId` is released first.
   * The processor sends the same report from its own timer too; a report sent twice is stored once.
   */
  reportStartedAfter(
    jobId: string,
    delayMs: number,
    report: StartedReport,
    attempt: number,
    run: number | undefined,
  ): void {
    this.thread.postMessage({
      started: jobId,
      report,
      attempt,
      ...(run === undefined ? {} : { run }),
      delayMs,
    } satisfies HorizonLockMessage);
  }

  release(jobId: string): void {
    this.cancels.delete(jobId);
    this.thread.postMessage({ release: jobId } satisfies HorizonLockMessage);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.thread.terminate();
  }
}
