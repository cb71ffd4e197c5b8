import { parentPort, workerData } from 'node:worker_threads';

import { HorizonWorkerService } from './horizon-worker.service.js';
import type { HorizonWorkerThreadMessage } from './horizon-worker-thread.service.js';
import type { WorkerModuleOptions } from './worker.options.js';

/**
 * The thread behind `HorizonWorkerThreadService`: a horizon worker as a worker process runs it
 * (its horizons on threads of their own). Told `close`, it drains and says `closed`.
 */
const service = new HorizonWorkerService(workerData as WorkerModuleOptions);
await service.onApplicationBootstrap();
parentPort?.on('message', (message: HorizonWorkerThreadMessage) => {
  if (message !== 'close') return;
  void service
    .onApplicationShutdown()
    .then(() => parentPort?.postMessage('closed' satisfies HorizonWorkerThreadMessage));
});
parentPort?.postMessage('ready' satisfies HorizonWorkerThreadMessage);
