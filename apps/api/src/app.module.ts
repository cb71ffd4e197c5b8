import { type DynamicModule, Module } from '@nestjs/common';
import { APP_FILTER } from '@nestjs/core';
import { TerminusModule } from '@nestjs/terminus';
import { ThrottlerModule } from '@nestjs/throttler';

import { FarmKeys } from '@satfarm/queue';

import { WorkerModule } from '../../worker/src/worker.module.js';
import { workerOptionsOf } from '../../worker/src/worker.options.js';
import { API_KEYS, ApiKeys } from './auth/api-keys.js';
import { CoordinatorService } from './coordinator/coordinator.service.js';
import { BodyErrorFilter } from './errors/body-error.filter.js';
import { PayloadErrorFilter } from './errors/payload-error.filter.js';
import { FARM_APP_OPTIONS, type ResolvedFarmAppOptions } from './farm-app.options.js';
import { FarmController } from './farm/farm.controller.js';
import { HealthController } from './health/health.controller.js';
import { BatchesController } from './jobs/batches.controller.js';
import { JobsController } from './jobs/jobs.controller.js';
import { FarmMetrics } from './metrics/farm-metrics.js';
import { MetricsController } from './metrics/metrics.controller.js';
import { ProgressGateway } from './progress/progress.gateway.js';
import { ProgressRelay } from './progress/progress.relay.js';
import { RedisThrottlerStorage } from './throttle/redis-throttler.storage.js';

/**
 * The farm's API process: HTTP routes, the `/progress` websocket, the coordinator, and (for
 * `satfarm serve`) worker slots in the same process, on a thread of their own.
 */
@Module({})
export class AppModule {
  static forRoot(options: ResolvedFarmAppOptions): DynamicModule {
    const { config } = options;
    const rateLimit = config.rateLimitPerMinute;
    const storage = new RedisThrottlerStorage(options.redisUrl, new FarmKeys(config.prefix));
    return {
      module: AppModule,
      imports: [
        TerminusModule,
        ThrottlerModule.forRoot({
          throttlers: [{ name: 'per-key', ttl: 60_000, limit: Math.max(1, rateLimit) }],
          storage,
          skipIf: () => rateLimit === 0,
        }),
        ...(options.workerSlots > 0
          ? [
              WorkerModule.inThread({
                ...workerOptionsOf(config, options.redisUrl, options.workerSlots),
                ...(options.gamesModule === undefined ? {} : { gamesModule: options.gamesModule }),
              }),
            ]
          : []),
      ],
      controllers: [JobsController, BatchesController, FarmController, HealthController, MetricsController],
      providers: [
        { provide: FARM_APP_OPTIONS, useValue: options },
        { provide: API_KEYS, useValue: new ApiKeys(config.apiKeys) },
        { provide: FarmMetrics, useValue: new FarmMetrics() },
        { provide: RedisThrottlerStorage, useValue: storage },
        { provide: APP_FILTER, useClass: BodyErrorFilter },
        { provide: APP_FILTER, useClass: PayloadErrorFilter },
        ProgressRelay,
        CoordinatorService,
        ProgressGateway,
      ],
    };
  }
}
