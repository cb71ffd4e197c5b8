import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Redis } from 'ioredis';

import { createRedisConnection, describeRedisError } from '@satfarm/queue';
import { createSolver } from '@satfarm/solver';

import { HorizonWorker } from './horizon-worker.js';
import { WORKER_OPTIONS, type WorkerModuleOptions } from './worker.options.js';

/**
 * Nest's handle on a horizon worker: owns its Redis connection and the worker, starts taking
 * horizons when the application starts, and on shutdown aborts the running ones (they are
 * retried elsewhere) before closing.
 */
@Injectable()
export class HorizonWorkerService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('HorizonWorker');
  private readonly connection: Redis;
  readonly worker: HorizonWorker;

  constructor(@Inject(WORKER_OPTIONS) options: WorkerModuleOptions) {
    this.connection = createRedisConnection(options.redisUrl, { connectionName: 'satfarm-worker' });
    this.connection.on('error', (err: Error) => this.logger.warn(describeRedisError(err)));
    this.worker = new HorizonWorker({
      connection: this.connection,
      prefix: options.prefix,
      slots: options.slots,
      ...(options.gamesModule === undefined ? {} : { gamesModule: options.gamesModule }),
      solverLimits: options.solverLimits,
      formulaMemoryMiB: options.formulaMemoryMiB,
      solverLaunch: options.solverLaunch,
      horizonLockMs: options.horizonLockMs,
    });
  }

  async onApplicationBootstrap(): Promise<void> {
    // Ask the default solver its version now rather than inside the first horizon: a missing
    // binary shows at start-up, and no short-lived probe process runs beside the solvers later.
    await createSolver('kissat')
      .version()
      .catch((err: unknown) => this.logger.warn(`${(err as Error).message}; kissat horizons will fail`));
    await this.worker.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.worker.close();
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
