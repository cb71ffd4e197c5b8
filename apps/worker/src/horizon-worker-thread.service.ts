import { Worker } from 'node:worker_threads';

import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

import { threadExecArgv } from '@satfarm/engine';

import { WORKER_OPTIONS, type WorkerModuleOptions } from './worker.options.js';

/** Between the service and its thread: `ready` and `closed` from it, `close` to it. */
export type HorizonWorkerThreadMessage = 'ready' | 'close' | 'closed';

/**
 * The worker of an API process (`satfarm serve`), on a thread of its own: its BullMQ traffic, its
 * reports and its progress then share no event loop with the API's requests, which halved the
 * API's throughput of trivial jobs (docs/farm.md#one-horizon). It drains with the application, as
 * a worker process does. If the thread dies otherwise, the process shuts down rather than serve on
 * without solver slots.
 */
@Injectable()
export class HorizonWorkerThreadService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('HorizonWorker');
  private thread?: Worker;
  private closing = false;
  private exited = false;

  constructor(@Inject(WORKER_OPTIONS) private readonly options: WorkerModuleOptions) {}

  async onApplicationBootstrap(): Promise<void> {
    const thread = new Worker(new URL('./horizon-worker.thread.js', import.meta.url), {
      workerData: this.options,
      execArgv: threadExecArgv(),
    });
    this.thread = thread;
    await new Promise<void>((resolve, reject) => {
      thread.once('message', () => resolve());
      thread.once('error', reject);
      thread.once('exit', (code) =>
        reject(new Error(`the worker thread exited (code ${code}) before it was ready`)),
      );
    });
    thread.removeAllListeners('error').removeAllListeners('exit');
    thread.on('error', (err) => this.logger.error(`worker thread: ${err.message}`));
    thread.on('exit', (code) => {
      this.exited = true;
      if (this.closing) return;
      this.logger.error(`the worker thread stopped (code ${code}); shutting down`);
      process.exitCode = 1;
      process.kill(process.pid, 'SIGTERM');
    });
  }

  async onApplicationShutdown(): Promise<void> {
    const thread = this.thread;
    if (thread === undefined || this.closing || this.exited) return;
    this.closing = true;
    await new Promise<void>((resolve) => {
      thread.on('message', (message: HorizonWorkerThreadMessage) => {
        if (message === 'closed') resolve();
      });
      thread.once('exit', () => resolve());
      thread.postMessage('close' satisfies HorizonWorkerThreadMessage);
    });
    await thread.terminate();
  }
}
