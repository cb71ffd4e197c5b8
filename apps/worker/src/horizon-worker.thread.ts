import { parentPort, workerData } from 'node:worker_threads';

import { installSolverReaper } from '@satfarm/solver';

import { importGameLookup } from '@satfarm/engine';
import { HorizonWorkerService } from './horizon-worker.service.js';
import type {
  HorizonWorkerThreadMessage,
  HorizonWorkerThreadStart,
} from './horizon-worker-thread.service.js';

/**
 * The thread behind `HorizonWorkerThreadService`: a horizon worker, as a worker process runs it,
 * whose formula builds hold this thread's event loop rather than the API's. Told `close`, it
 * drains and says `closed`; a build in progress sees the shutdown flag first and stops.
 */
const start = workerData as HorizonWorkerThreadStart;
const { gamesModule, ...options } = start.options;
const shutdown = new Int32Array(start.shutdown);
// A thread hears no signals; its solvers die with it (its exit) or with the process.
installSolverReaper({ signals: [] });
const games = gamesModule === undefined ? undefined : await importGameLookup(gamesModule);
const service = new HorizonWorkerService({
  ...options,
  ...(games === undefined ? {} : { games }),
  shutdownRequested: () => Atomics.load(shutdown, 0) === 1,
});
await service.onApplicationBootstrap();
parentPort?.on('message', (message: HorizonWorkerThreadMessage) => {
  if (message !== 'close') return;
  void service
    .onApplicationShutdown()
    .then(() => parentPort?.postMessage('closed' satisfies HorizonWorkerThreadMessage));
});
parentPort?.postMessage('ready' satisfies HorizonWorkerThreadMessage);
