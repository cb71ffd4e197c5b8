import { NestFactory } from '@nestjs/core';
import type { INestApplicationContext } from '@nestjs/common';

import { installSolverReaper } from '@satfarm/solver';

import { WorkerModule } from './worker.module.js';
import type { WorkerModuleOptions } from './worker.options.js';

/**
 * Starts a worker process: a Nest application context (no HTTP) around one horizon worker. The
 * caller decides how it shuts down (`enableShutdownHooks()`, or `close()` itself).
 */
export async function startWorkerApp(options: WorkerModuleOptions): Promise<INestApplicationContext> {
  installSolverReaper();
  const app = await NestFactory.createApplicationContext(WorkerModule.forRoot(options), {
    logger: ['error', 'warn'],
  });
  await app.init();
  return app;
}
