import { hostname } from 'node:os';

import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

import { describeRedisError, FarmKeys, QueueName, untakenHorizons, WORKER_METRICS } from '@satfarm/queue';
import { HorizonThreadPool } from '@satfarm/engine';
import type { LaunchMode, ResourceLimits } from '@satfarm/solver';

import { HorizonCancelListener } from './horizon-cancel.listener.js';
import { HorizonReportSender } from './horizon-report.sender.js';
import { createHorizonProcessor } from './horizon.processor.js';
import { abortOnLostLocks } from './lost-lock.listener.js';
import { SolveHorizonUseCase } from './solve-horizon.usecase.js';

/** How a horizon worker runs. */
export interface HorizonWorkerOptions {
  /** A command connection; the worker duplicates it for its blocking and subscriber connections. */
  connection: Redis;
  prefix: string;
  /** Solver slots: horizons solved at once by this process. */
  slots: number;
  /** A module exporting the games' `lookup` (`importGameLookup`); the registry by default. */
  gamesModule?: string;
  /** Limits of every solver process (none by default). */
  solverLimits?: ResourceLimits;
  /** The most memory one formula may take; none when unset (`workerOptionsOf` resolves the default). */
  formulaMemoryMiB?: number;
  /** How solver processes start (the spawn host by default). */
  solverLaunch?: LaunchMode;
  /** How long a claim on a horizon lasts without renewal (BullMQ's default by default). */
  horizonLockMs?: number;
}

/**
 * One worker process's horizon solving: a BullMQ worker with `slots` concurrent jobs, each run in
 * a thread of `HorizonThreadPool` so that this event loop (BullMQ's lock renewal, the cancel
 * listener, the reports) never waits for a formula build; the cancel listener that aborts running
 * horizons; and the producer of reports. It owns them all and closes them in `close()`: running
 * solvers are aborted and their horizons handed back for a retry, so a shutdown loses no work.
 */
export class HorizonWorker {
  private worker?: Worker;
  private reportsQueue?: Queue;
  private horizonsQueue?: Queue;
  private listener?: HorizonCancelListener;
  private threads?: HorizonThreadPool;
  private slotsTimer?: NodeJS.Timeout;
  private forgetSlots?: () => Promise<unknown>;
  private closing?: Promise<void>;
  private draining = false;

  constructor(private readonly options: HorizonWorkerOptions) {}

  /** Horizons being solved by this process now. */
  get activeSolvers(): number {
    return this.threads?.busy ?? 0;
  }

  async start(): Promise<void> {
    const { connection, prefix, slots } = this.options;
    const keys = new FarmKeys(prefix);
    const name = `${hostname()}:${process.pid}`;
    this.reportsQueue = new Queue(QueueName.reports, { connection, prefix });
    // The connection's owner logs its errors without the address; a queue would print them again.
    this.reportsQueue.on('error', () => undefined);
    const horizonsQueue = new Queue(QueueName.horizons, { connection, prefix });
    horizonsQueue.on('error', () => undefined);
    this.horizonsQueue = horizonsQueue;
    const threads = new HorizonThreadPool({
      size: slots,
      ...(this.options.gamesModule === undefined ? {} : { gamesModule: this.options.gamesModule }),
      ...(this.options.solverLimits === undefined ? {} : { solverLimits: this.options.solverLimits }),
      ...(this.options.solverLaunch === undefined ? {} : { solverLaunch: this.options.solverLaunch }),
    });
    this.threads = threads;
    await threads.start();
    const processor = createHorizonProcessor({
      redis: connection,
      keys,
      reports: new HorizonReportSender(this.reportsQueue),
      solveHorizon: new SolveHorizonUseCase(
        threads,
        this.options.formulaMemoryMiB === undefined ? undefined : this.options.formulaMemoryMiB * 2 ** 20,
      ),
      worker: name,
      draining: () => this.draining,
      horizonsWaiting: async () => (await untakenHorizons(horizonsQueue)).primaries > 0,
    });
    const worker = new Worker(QueueName.horizons, processor, {
      connection,
      prefix,
      concurrency: slots,
      autorun: false,
      metrics: WORKER_METRICS,
      ...(this.options.horizonLockMs === undefined
        ? {}
        : { lockDuration: this.options.horizonLockMs, stalledInterval: this.options.horizonLockMs }),
      // The name `GET /v1/farm` lists this process by (BullMQ's getWorkers()).
      name,
    });
    worker.on('error', (err) => process.stderr.write(`satfarm worker: ${describeRedisError(err)}\n`));
    abortOnLostLocks(worker);
    this.worker = worker;
    const subscriber = connection.duplicate();
    // Without a listener ioredis prints every reconnect failure with the server's address.
    subscriber.on('error', () => undefined);
    this.listener = new HorizonCancelListener(subscriber, keys, (id, reason) => worker.cancelJob(id, reason));
    await this.listener.start();
    void worker
      .run()
      .catch((err: Error) => process.stderr.write(`satfarm worker: ${describeRedisError(err)}\n`));
    await worker.waitUntilReady();
    await this.announceSlots(keys, name, slots);
  }

  /** Tells `GET /v1/farm` how many slots this process has, while it lives. */
  private async announceSlots(keys: FarmKeys, name: string, slots: number): Promise<void> {
    const { connection } = this.options;
    const announce = (): Promise<unknown> =>
      connection.set(keys.workerSlots(name), String(slots), 'EX', SLOTS_TTL_SEC).catch(() => undefined);
    await announce();
    this.slotsTimer = setInterval(() => void announce(), (SLOTS_TTL_SEC * 1000) / 3);
    this.slotsTimer.unref();
    this.forgetSlots = () => connection.del(keys.workerSlots(name)).catch(() => undefined);
  }

  /**
   * The drain: stops taking horizons, aborts the running ones (their solvers are killed and
   * reaped) and hands them back to the queue, where other workers take them at once; then closes.
   * It takes as long as killing a solver and a few Redis round trips, not as long as a solve.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.draining = true;
      if (this.worker) {
        const started = performance.now();
        const running = this.activeSolvers;
        const closed = this.worker.close();
        this.worker.cancelAllJobs('shutdown');
        await closed;
        process.stderr.write(
          `satfarm worker: drained in ${Math.round(performance.now() - started)} ms` +
            ` (${running} running solver${running === 1 ? '' : 's'} stopped and handed back)\n`,
        );
      }
      clearInterval(this.slotsTimer);
      await this.forgetSlots?.();
      await this.threads?.close();
      await this.listener?.close();
      await this.reportsQueue?.close();
      await this.horizonsQueue?.close();
    })();
    return this.closing;
  }
}

/** How long a worker's slot count outlives its last refresh. */
const SLOTS_TTL_SEC = 30;
