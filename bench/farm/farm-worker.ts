import { availableParallelism } from 'node:os';

import { startWorkerApp } from '../../apps/worker/src/worker.bootstrap.js';
import { loadFarmConfig } from '@satfarm/queue';

/**
 * A worker process for benchmarks: `satfarm worker` with the registry's games plus `staircase` and
 * `pigeons`. Started by the farm benchmarks: node dist/bench/farm/farm-worker.js
 */
const config = loadFarmConfig();
if (config.redisUrl === undefined) throw new Error('REDIS_URL is required');
const app = await startWorkerApp({
  redisUrl: config.redisUrl,
  prefix: config.prefix,
  slots: config.workerSlots ?? availableParallelism(),
  gamesModule: new URL('./staircase.game.js', import.meta.url).href,
  solverLaunch: config.solverLaunch,
});
app.enableShutdownHooks();
