import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Redis } from 'ioredis';

import { createRedisConnection, describeRedisError } from '@satfarm/queue';

import { FARM_APP_OPTIONS, type ResolvedFarmAppOptions } from '../farm-app.options.js';
import { FarmMetrics } from '../metrics/farm-metrics.js';
import { ProgressRelay } from '../progress/progress.relay.js';
import { CoordinatorRuntime } from './coordinator.runtime.js';
import type { SweepCoordinator } from './sweep-coordinator.js';

/**
 * Nest's handle on the coordinator: owns its Redis connection and runtime, resumes unfinished
 * jobs when the application starts, and closes both when it shuts down.
 */
@Injectable()
export class CoordinatorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Coordinator');
  readonly connection: Redis;
  readonly runtime: CoordinatorRuntime;

  constructor(
    @Inject(FARM_APP_OPTIONS) options: ResolvedFarmAppOptions,
    @Inject(FarmMetrics) metrics: FarmMetrics,
    @Inject(ProgressRelay) progress: ProgressRelay,
  ) {
    const { config } = options;
    this.connection = createRedisConnection(options.redisUrl, { connectionName: 'satfarm-coordinator' });
    this.connection.on('error', (err: Error) => this.logger.warn(describeRedisError(err)));
    this.runtime = new CoordinatorRuntime({
      connection: this.connection,
      prefix: config.prefix,
      jobTtlSec: config.jobTtlSec,
      quickPlanHeapMiB: config.quickPlanHeapMiB,
      ...(config.fairShare === undefined ? {} : { fairLookahead: config.fairShare.lookahead }),
      settings: {
        maxHorizon: config.maxHorizon,
        defaultParallelism: options.defaultParallelism ?? 2,
        ...(config.solver === undefined ? {} : { solver: config.solver }),
        levelFiles: config.levelFiles,
      },
      metrics,
      progress,
      games: options.games,
    });
  }

  get coordinator(): SweepCoordinator {
    return this.runtime.coordinator;
  }

  async onApplicationBootstrap(): Promise<void> {
    await this.runtime.start();
  }

  async onApplicationShutdown(): Promise<void> {
    await this.runtime.close();
    await this.connection.quit().catch(() => this.connection.disconnect());
  }
}
