import { randomBytes } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';

import { FarmMetrics } from '../metrics/farm-metrics.js';
import { CoordinatorRuntime, mergeExpositions } from './coordinator.runtime.js';

describe(mergeExpositions.name, () => {
  it('keeps each metric family’s HELP and TYPE once, with the samples of every queue under it', () => {
    const queue = (name: string): string =>
      [
        '# HELP bullmq_job_count Number of jobs in the queue by state',
        '# TYPE bullmq_job_count gauge',
        `bullmq_job_count{queue="${name}", state="active"} 1`,
        '# HELP bullmq_job_failed_total Total number of failed jobs',
        '# TYPE bullmq_job_failed_total counter',
        `bullmq_job_failed_total{queue="${name}"} 0`,
      ].join('\n');
    const sut = mergeExpositions([queue('a'), queue('b')]).split('\n');
    expect(sut.filter((l) => l.startsWith('# TYPE bullmq_job_count'))).toHaveLength(1);
    expect(sut.indexOf('bullmq_job_count{queue="b", state="active"} 1')).toBeLessThan(
      sut.indexOf('# HELP bullmq_job_failed_total Total number of failed jobs'),
    );
    expect(sut.filter((l) => l.startsWith('bullmq_job_failed_total'))).toHaveLength(2);
  });
});

describe(CoordinatorRuntime.name, () => {
  // Against the real Redis, under a prefix of this file's own, removed afterwards.
  const prefix = `satfarm-unit-runtime-${process.pid}-${randomBytes(3).toString('hex')}`;
  const connection = new Redis(process.env.SATFARM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', {
    maxRetriesPerRequest: null,
  });
  const runtime = new CoordinatorRuntime({
    connection,
    prefix,
    jobTtlSec: 60,
    settings: { maxHorizon: 10, defaultParallelism: 1, levelFiles: [] },
    metrics: new FarmMetrics(),
    progress: {
      horizon: () => undefined,
      job: () => undefined,
      batch: () => undefined,
      solverProgress: () => undefined,
    },
  });

  afterAll(async () => {
    await runtime.close();
    const found = await connection.keys(`${prefix}:*`);
    if (found.length > 0) await connection.del(...found);
    await connection.quit();
  });

  it('answers the farm at a glance, with no workers, from a Redis that refuses CLIENT LIST', async () => {
    vi.spyOn(runtime.horizons, 'getWorkers').mockRejectedValueOnce(
      new Error("NOPERM User farm has no permissions to run the 'client|list' command"),
    );
    const overview = await runtime.overview();
    expect(overview.workers).toEqual([]);
    expect(overview.jobs).toEqual({ queued: 0, running: 0 });
    expect(overview.queueDepth).toBe(0);
  });
});
