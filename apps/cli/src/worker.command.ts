import { Command } from 'commander';

import { InputError } from '@satfarm/games';
import { usableCores } from '@satfarm/solver';

import { positiveInt } from './cli-options.js';
import { farmConfigFromEnv } from './serve.command.js';

/** `satfarm worker`: one worker process with N solver slots, for a fleet. */
export function workerCommand(): Command {
  return new Command('worker')
    .description('run one worker process (REDIS_URL required)')
    .option(
      '--slots <n>',
      'solver slots (default: SATFARM_WORKER_SLOTS or the cores this process may use, CPU quota included)',
      positiveInt,
    )
    .action(async (flags: { slots?: number }) => {
      const config = farmConfigFromEnv();
      if (config.redisUrl === undefined)
        throw new InputError('REDIS_URL', 'required by `satfarm worker` (redis://host:port)');
      const { startWorkerApp } = await import('../../worker/src/worker.bootstrap.js');
      const { workerOptionsOf } = await import('../../worker/src/worker.options.js');
      const slots = flags.slots ?? config.workerSlots ?? usableCores();
      const options = workerOptionsOf(config, config.redisUrl, slots);
      const app = await startWorkerApp(options);
      app.enableShutdownHooks();
      process.stderr.write(
        `satfarm worker: ${slots} solver slot${slots === 1 ? '' : 's'} on ${config.prefix},` +
          ` formulas up to ${options.formulaMemoryMiB} MiB each\n`,
      );
    });
}
