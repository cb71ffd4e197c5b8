import { ConfigError, loadFarmConfig } from '@satfarm/queue';
import { usableCores } from '@satfarm/solver';

import { createFarmApp, listenFarmApp } from './api.bootstrap.js';

try {
  const config = loadFarmConfig();
  if (config.redisUrl === undefined)
    throw new ConfigError('REDIS_URL', 'required by the API process (redis://host:port)');
  const app = await createFarmApp({
    config,
    redisUrl: config.redisUrl,
    workerSlots: 0,
    defaultParallelism: Math.min(4, usableCores()),
  });
  app.enableShutdownHooks();
  const url = await listenFarmApp(app, config.port);
  process.stderr.write(`satfarm api: listening on ${url}\n`);
} catch (err) {
  process.stderr.write(`satfarm api: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = err instanceof ConfigError ? 2 : 4;
}
