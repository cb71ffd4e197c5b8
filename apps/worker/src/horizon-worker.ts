import { hostname } from 'node:os';

import { type Job, Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

import { describeRedisError, FarmKeys, QueueName, WORKER_METRICS } from '@satfarm/queue';
import { createSolver, type LaunchMode, liveSolverCount, type ResourceLimits } from '@satfarm/solver';

import { HorizonCancelListener } from './horizon-cancel.listener.js';
import { HorizonLockKeeper } from './horizon-lock.keeper.js';
import { HorizonReportSender } from './horizon-report.sender.js';
import { createHorizonProcessor } from './horizon.processor.js';
import { abortOnLostLocks } from './lost-lock.listener.js';
import { type GameLookup } from '@satfarm/engine';

import { SolveHorizonUseCase } from './solve-horizon.usecase.js';

/** How a horizon worker runs. */
export interface HorizonWorkerOptions {
  /** A command connection; the worker duplicates it for its blocking and subscriber connections. */
  connection: Redis;
  prefix: string;
  /** Solver slots: horizons solved at once by this process. */
  slots: number;
  /** Game lookup (the registry by default). */
  games?: GameLookup;
  /** Limits of every solver process (none by default). */
  solverLimits?: ResourceLimits;
  /** The most memory one formula may take; none when unset (`workerOptionsOf` resolves the default). */
  formulaMemoryMiB?: number;
  /** How solver processes start (the spawn host by default). */
  solverLaunch?: LaunchMode;
  /** How long a claim on a horizon lasts without renewal (BullMQ's default by default). */
  horizonLockMs?: number;
  /** True once the process shuts down, asked during builds (`WorkerModuleOptions.shutdownRequested`). */
  shutdownRequested?: () => boolean;
  /**
   * The Redis URL of `connection`, for the thread that keeps the locks of running horizons while a
   * formula build holds the event loop (`HorizonLockKeeper`).
   */
  redisUrl: string;
}

/** BullMQ's lock duration when none is set. */
const BULLMQ_LOCK_MS = 30_000;

/**
 * One worker process's horizon solving: a BullMQ worker with `slots` concurrent jobs, the cancel
 * listener that aborts running horizons, and the producer of reports. It owns all three and
 * closes them in `close()`: running solvers are aborted and their horizons handed back for a
 * retry, so a shutdown loses no work.
 */
export class HorizonWorker {
  private worker?: Worker;
  private reportsQueue?: Queue;
  private listener?: HorizonCancelListener;
  private keeper?: HorizonLockKeeper;
  private slotsTimer?: NodeJS.Timeout;
  private forgetSlots?: () => Promise<unknown>;
  private closing?: Promise<void>;
  private draining = false;

  constructor(private readonly options: HorizonWorkerOptions) {}

  /** Horizons being solved by this process now. */
  get activeSolvers(): number {
    return liveSolverCount();
  }

  async start(): Promise<void> {
    const { connection, prefix, slots } = this.options;
    const keys = new FarmKeys(prefix);
    const name = `${hostname()}:${process.pid}`;
    this.reportsQueue = new Queue(QueueName.reports, { connection, prefix });
    // The connection's owner logs its errors without the address; a queue would print them again.
    this.reportsQueue.on('error', () => undefined);
    const keeper = new HorizonLockKeeper({
      redisUrl: this.options.redisUrl,
      prefix,
      queue: QueueName.horizons,
      lockMs: this.options.horizonLockMs ?? BULLMQ_LOCK_MS,
    });
    this.keeper = keeper;
    const processor = createHorizonProcessor({
      redis: connection,
      keys,
      reports: new HorizonReportSender(this.reportsQueue),
      solveHorizon: new SolveHorizonUseCase(
        this.options.games,
        undefined,
        (solver) => createSolver(solver, { ...this.options.solverLimits, launch: this.options.solverLaunch }),
        this.options.formulaMemoryMiB === undefined ? undefined : this.options.formulaMemoryMiB * 2 ** 20,
      ),
      worker: name,
      draining: () => this.draining,
      buildStop: (horizonJobId) =>
        keeper.cancelRequested(horizonJobId) || this.options.shutdownRequested?.() === true,
      reportStartedAfter: (...args) => keeper.reportStartedAfter(...args),
    });
    const worker = new Worker(QueueName.horizons, keptBy(keeper, processor), {
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
    await keeper.ready();
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
        const running = liveSolverCount();
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
      await this.keeper?.close();
      await this.listener?.close();
      await this.reportsQueue?.close();
    })();
    return this.closing;
  }
}

/** How long a worker's slot count outlives its last refresh. */
const SLOTS_TTL_SEC = 30;

/** `processor` with each job's lock held by `keeper` while it runs. */
function keptBy<T>(
  keeper: HorizonLockKeeper,
  processor: (job: Job, token: string | undefined, signal: AbortSignal | undefined) => Promise<T>,
): (job: Job, token: string | undefined, signal: AbortSignal | undefined) => Promise<T> {
  return async (job, token, signal) => {
    if (token === undefined || job.id === undefined) return processor(job, token, signal);
    keeper.hold(job.id, token);
    try {
      return await processor(job, token, signal);
    } finally {
      keeper.release(job.id);
    }
  };
}
