import { hostname } from 'node:os';

import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

import { FarmKeys, QueueName } from '@satfarm/queue';
import { liveSolverCount } from '@satfarm/solver';

import { HorizonCancelListener } from './horizon-cancel.listener.js';
import { HorizonReportSender } from './horizon-report.sender.js';
import { createHorizonProcessor } from './horizon.processor.js';
import { type GameLookup, SolveHorizonUseCase } from './solve-horizon.usecase.js';

/** How a horizon worker runs. */
export interface HorizonWorkerOptions {
  /** A command connection; the worker duplicates it for its blocking and subscriber connections. */
  connection: Redis;
  prefix: string;
  /** Solver slots: horizons solved at once by this process. */
  slots: number;
  /** Game lookup (the registry by default). */
  games?: GameLookup;
}

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
  private closing?: Promise<void>;

  constructor(private readonly options: HorizonWorkerOptions) {}

  /** Horizons being solved by this process now. */
  get activeSolvers(): number {
    return liveSolverCount();
  }

  async start(): Promise<void> {
    const { connection, prefix, slots } = this.options;
    const keys = new FarmKeys(prefix);
    this.reportsQueue = new Queue(QueueName.reports, { connection, prefix });
    const processor = createHorizonProcessor({
      redis: connection,
      keys,
      reports: new HorizonReportSender(this.reportsQueue),
      solveHorizon: new SolveHorizonUseCase(this.options.games),
      worker: `${hostname()}:${process.pid}`,
    });
    const worker = new Worker(QueueName.horizons, processor, {
      connection,
      prefix,
      concurrency: slots,
      autorun: false,
    });
    worker.on('error', (err) => process.stderr.write(`satfarm worker: ${err.message}\n`));
    this.worker = worker;
    this.listener = new HorizonCancelListener(connection.duplicate(), keys, (id, reason) =>
      worker.cancelJob(id, reason),
    );
    await this.listener.start();
    void worker.run().catch((err: Error) => process.stderr.write(`satfarm worker: ${err.message}\n`));
    await worker.waitUntilReady();
  }

  /** Stops taking horizons, aborts the running ones (they are retried elsewhere) and closes. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      if (this.worker) {
        const closed = this.worker.close();
        this.worker.cancelAllJobs('shutdown');
        await closed;
      }
      await this.listener?.close();
      await this.reportsQueue?.close();
    })();
    return this.closing;
  }
}
