import { ConfigError, loadFarmConfig } from '@satfarm/queue';
import { usableCores } from '@satfarm/solver';

import { startWorkerApp } from './worker.bootstrap.js';
import { workerOptionsOf } from './worker.options.js';

try {
  const config = loadFarmConfig();
  if (config.redisUrl === undefined)
    throw new ConfigError('REDIS_URL', 'required by a worker process (redis://host:port)');
  const app = await startWorkerApp(
    workerOptionsOf(config, config.redisUrl, config.workerSlots ?? usableCores()),
  );
  app.enableShutdownHooks();
} catch (err) {
  process.stderr.write(`satfarm worker: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = err instanceof ConfigError ? 2 : 4;
}
