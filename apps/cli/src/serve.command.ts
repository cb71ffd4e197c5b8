import { Command } from 'commander';

import { ConfigError, type FarmConfig, loadFarmConfig } from '@satfarm/queue';
import { InputError } from '@satfarm/games';
import { usableCores } from '@satfarm/solver';

import { nonNegativeInt, positiveInt } from './cli-options.js';

/** The farm's settings from the environment; a bad variable is bad input naming it. */
export function farmConfigFromEnv(): FarmConfig {
  try {
    return loadFarmConfig();
  } catch (err) {
    if (err instanceof ConfigError) throw new InputError(err.variable, err.reason);
    throw err;
  }
}

/**
 * `satfarm serve`: the whole farm in one process group: the API, the coordinator and N solver
 * slots. Without `REDIS_URL` it starts a private redis-server (the embedded default) and stops it
 * on exit.
 */
export function serveCommand(): Command {
  return new Command('serve')
    .description('run the farm here: api + coordinator + worker slots (a private Redis without REDIS_URL)')
    .option('--port <n>', 'HTTP port (default: PORT or 3000; 0 picks a free port)', nonNegativeInt)
    .option(
      '--workers <n>',
      'solver slots (default: SATFARM_WORKER_SLOTS or the cores this process may use, CPU quota included)',
      positiveInt,
    )
    .action(async (flags: { port?: number; workers?: number }) => {
      const config = farmConfigFromEnv();
      // Loaded here, not at start-up: the farm's modules are large and other commands need none.
      const { createFarmApp, listenFarmApp } = await import('../../api/src/api.bootstrap.js');
      const { LocalRedisServer } = await import('../../api/src/embedded/local-redis.server.js');
      const { workerOptionsOf } = await import('../../worker/src/worker.options.js');
      const redis = config.redisUrl === undefined ? await LocalRedisServer.start() : undefined;
      const redisUrl = config.redisUrl ?? redis!.url;
      const slots = flags.workers ?? config.workerSlots ?? usableCores();
      try {
        const app = await createFarmApp({
          config,
          redisUrl,
          workerSlots: slots,
          defaultParallelism: Math.min(slots, 4),
        });
        const url = await listenFarmApp(app, flags.port ?? config.port);
        const stop = (): void => {
          process.off('SIGINT', stop);
          process.off('SIGTERM', stop);
          void app
            .close()
            .then(() => redis?.stop())
            .catch((err: Error) => {
              process.stderr.write(`satfarm: while stopping: ${err.message}\n`);
              process.exitCode = 4;
            });
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        process.stderr.write(
          [
            `satfarm: serving on ${url} with ${slots} solver slot${slots === 1 ? '' : 's'}` +
              (slots > 0
                ? `, formulas up to ${workerOptionsOf(config, redisUrl, slots).formulaMemoryMiB} MiB each`
                : ''),
            `  redis:   ${redis ? `embedded, ${redis.url} (no persistence; stopped on exit)` : 'REDIS_URL'}`,
            `  web:     ${url}/ (the dashboard)`,
            `  api:     POST ${url}/v1/jobs   docs: ${url}/docs   queues: ${url}/queues`,
            `  health:  ${url}/health   metrics: ${url}/metrics   progress: socket.io ${url}/progress`,
            `  submit:  bin/satfarm submit cnf --input examples/<file>.cnf --api ${url}`,
            '',
          ].join('\n'),
        );
      } catch (err) {
        await redis?.stop();
        throw err;
      }
    });
}
