import { createFarmApp, listenFarmApp } from '../../apps/api/src/api.bootstrap.js';
import { loadFarmConfig } from '@satfarm/queue';

/**
 * A farm for benchmarks: the API, the coordinator and `SATFARM_WORKER_SLOTS` solver slots (none by
 * default) in this process, with the registry's games plus `staircase`. Prints `{"url": ...}` once it listens and
 * stops on SIGTERM. Started by the farm benchmarks: node dist/bench/farm/farm-server.js
 */
const config = loadFarmConfig();
if (config.redisUrl === undefined) throw new Error('REDIS_URL is required');
const app = await createFarmApp({
  config,
  redisUrl: config.redisUrl,
  workerSlots: config.workerSlots ?? 0,
  defaultParallelism: 2,
  gamesModule: new URL('./staircase.game.js', import.meta.url).href,
});
app.enableShutdownHooks();
const url = await listenFarmApp(app, 0, '127.0.0.1');
process.stdout.write(`${JSON.stringify({ url })}\n`);
