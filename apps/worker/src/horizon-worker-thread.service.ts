import { Worker } from 'node:worker_threads';

import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';

import { WORKER_OPTIONS, type WorkerModuleOptions } from './worker.options.js';
import { threadExecArgv } from '@satfarm/engine';

/** What the worker thread starts with: the worker's options, its games as a module to import. */
export type HorizonWorkerThreadData = Omit<WorkerModuleOptions, 'games' | 'shutdownRequested'> & {
  /** A module exporting `lookup` (see `importGameLookup`); the registry when unset. */
  gamesModule?: string;
};

/** What the thread gets besides its options: the flag the service raises at shutdown. */
export interface HorizonWorkerThreadStart {
  options: HorizonWorkerThreadData;
  /** One Int32 set to 1 when the process shuts down (read during builds). */
  shutdown: SharedArrayBuffer;
}

/** Between the service and its thread: `ready` and `closed` from it, `close` to it. */
export type HorizonWorkerThreadMessage = 'ready' | 'close' | 'closed';

/**
 * The worker slots of an API process (`satfarm serve`), in a thread of their own. A formula is
 * built synchronously, for seconds when it is large (a 100x100 Snake at horizon 197: about 4 s),
 * and on the API's thread that build held every HTTP request, websocket and coordinator decision
 * meanwhile. The thread drains with the application, as a worker process does; a build in
 * progress then stops at once (a flag in shared memory, which the build reads as it reads a
 * cancel), rather than hold the shutdown until it ends. If the thread dies otherwise, the process
 * shuts down rather than serve on without solver slots.
 */
@Injectable()
export class HorizonWorkerThreadService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('HorizonWorker');
  private thread?: Worker;
  private closing = false;
  private exited = false;
  private readonly shutdown = new Int32Array(new SharedArrayBuffer(4));

  constructor(@Inject(WORKER_OPTIONS) private readonly options: HorizonWorkerThreadData) {}

  async onApplicationBootstrap(): Promise<void> {
    const thread = new Worker(new URL('./horizon-worker.thread.js', import.meta.url), {
      workerData: {
        options: this.options,
        shutdown: this.shutdown.buffer,
      } satisfies HorizonWorkerThreadStart,
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
    Atomics.store(this.shutdown, 0, 1);
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
