import { availableParallelism } from 'node:os';

import { Command } from 'commander';

import { InputError } from '@satfarm/games';

import { nonNegativeInt } from './cli-options.js';
import { farmConfigFromEnv } from './serve.command.js';

/** `satfarm api`: the API and coordinator alone, for a fleet (workers run elsewhere). */
export function apiCommand(): Command {
  return new Command('api')
    .description('run the api and coordinator (REDIS_URL required; workers run as `satfarm worker`)')
    .option('--port <n>', 'HTTP port (default: PORT or 3000)', nonNegativeInt)
    .action(async (flags: { port?: number }) => {
      const config = farmConfigFromEnv();
      if (config.redisUrl === undefined)
        throw new InputError('REDIS_URL', 'required by `satfarm api` (redis://host:port)');
      const { createFarmApp, listenFarmApp } = await import('../../api/src/api.bootstrap.js');
      const app = await createFarmApp({
        config,
        redisUrl: config.redisUrl,
        workerSlots: 0,
        defaultParallelism: Math.min(4, availableParallelism()),
      });
      app.enableShutdownHooks();
      const url = await listenFarmApp(app, flags.port ?? config.port);
      process.stderr.write(`satfarm api: listening on ${url}\n`);
    });
}
