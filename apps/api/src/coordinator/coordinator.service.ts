import {
  Inject,
  Injectable,
  Logger,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
} from '@nestjs/common';
import type { Redis } from 'ioredis';

import { createRedisConnection, describeRedisError } from '@satfarm/queue';

import { PostgresJobArchive } from '../archive/postgres-job.archive.js';
import { FARM_APP_OPTIONS, type ResolvedFarmAppOptions } from '../farm-app.options.js';
import { FarmMetrics } from '../metrics/farm-metrics.js';
import { ProgressRelay } from '../progress/progress.relay.js';
import { CoordinatorRuntime } from './coordinator.runtime.js';
import type { SweepCoordinator } from './sweep-coordinator.js';

const DAY_MS = 24 * 3600 * 1000;
/** How often the store of record drops what is past its retention. */
const PURGE_INTERVAL_MS = 3600 * 1000;

/**
 * Nest's handle on the coordinator: owns its Redis connection, runtime and store of record
 * (with `SATFARM_DATABASE_URL`), migrates the store and resumes unfinished jobs when the
 * application starts, and closes them all when it shuts down.
 */
@Injectable()
export class CoordinatorService implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger('Coordinator');
  readonly connection: Redis;
  readonly runtime: CoordinatorRuntime;
  private readonly archive?: PostgresJobArchive;
  private readonly retentionMs?: number;
  private purgeTimer?: NodeJS.Timeout;
  private purging?: Promise<void>;

  constructor(
    @Inject(FARM_APP_OPTIONS) options: ResolvedFarmAppOptions,
    @Inject(FarmMetrics) metrics: FarmMetrics,
    @Inject(ProgressRelay) progress: ProgressRelay,
  ) {
    const { config } = options;
    this.connection = createRedisConnection(options.redisUrl, { connectionName: 'satfarm-coordinator' });
    this.connection.on('error', (err: Error) => this.logger.warn(describeRedisError(err)));
    if (config.databaseUrl !== undefined) {
      this.archive = new PostgresJobArchive({
        url: config.databaseUrl,
        onError: (message) => this.logger.warn(message),
      });
      if (config.retentionDays !== undefined) this.retentionMs = config.retentionDays * DAY_MS;
    }
    this.runtime = new CoordinatorRuntime({
      connection: this.connection,
      prefix: config.prefix,
      jobTtlSec: config.jobTtlSec,
      ...(config.archivedKeepSec === undefined ? {} : { archivedKeepSec: config.archivedKeepSec }),
      quickPlanHeapMiB: config.quickPlanHeapMiB,
      ...(config.fairShare === undefined ? {} : { fairLookahead: config.fairShare.lookahead }),
      settings: {
        maxHorizon: config.maxHorizon,
        defaultParallelism: options.defaultParallelism ?? 2,
        ...(config.solver === undefined ? {} : { solver: config.solver }),
        ...(config.portfolio === undefined ? {} : { portfolio: config.portfolio }),
        ...(config.certify === undefined ? {} : { certify: config.certify }),
        ...(config.proofLimitMiB === undefined ? {} : { proofLimitMiB: config.proofLimitMiB }),
        levelFiles: config.levelFiles,
      },
      metrics,
      progress,
      games: options.games,
      ...(this.archive === undefined ? {} : { archive: this.archive }),
    });
  }

  get coordinator(): SweepCoordinator {
    return this.runtime.coordinator;
  }

  async onApplicationBootstrap(): Promise<void> {
    // The coordinator reads and writes the store as soon as it resumes: its schema comes first.
    await this.archive?.migrate();
    if (this.retentionMs !== undefined) {
      this.purge();
      this.purgeTimer = setInterval(() => this.purge(), PURGE_INTERVAL_MS).unref();
    }
    await this.runtime.start();
  }

  async onApplicationShutdown(): Promise<void> {
    clearInterval(this.purgeTimer);
    await this.runtime.close();
    await this.purging;
    await this.archive?.close();
    await this.connection.quit().catch(() => this.connection.disconnect());
  }

  /** Drops what is past the retention; one purge at a time, a failed one is retried next hour. */
  private purge(): void {
    if (this.archive === undefined || this.retentionMs === undefined || this.purging) return;
    const archive = this.archive;
    this.purging = archive
      .purgeFinishedBefore(Date.now() - this.retentionMs)
      .then(
        (jobs) => {
          if (jobs > 0) this.logger.log(`store of record: ${jobs} jobs past the retention deleted`);
        },
        (err: Error) => this.logger.warn(`store of record: purge failed: ${err.message}`),
      )
      .finally(() => (this.purging = undefined));
  }
}
