import { ConfigError, loadFarmConfig } from '@satfarm/queue';
import { usableCores } from '@satfarm/solver';

import { startWorkerApp } from './worker.bootstrap.js';

try {
  const config = loadFarmConfig();
  if (config.redisUrl === undefined)
    throw new ConfigError('REDIS_URL', 'required by a worker process (redis://host:port)');
  const app = await startWorkerApp({
    redisUrl: config.redisUrl,
    prefix: config.prefix,
    slots: config.workerSlots ?? usableCores(),
    solverLimits: config.solverLimits,
    solverLaunch: config.solverLaunch,
    horizonLockMs: config.horizonLockMs,
  });
  app.enableShutdownHooks();
} catch (err) {
  process.stderr.write(`satfarm worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = err instanceof ConfigError ? 2 : 4;
}
