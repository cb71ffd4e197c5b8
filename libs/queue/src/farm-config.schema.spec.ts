import { describe, expect, it } from 'vitest';

import { ConfigError, loadFarmConfig } from './farm-config.schema.js';

describe(loadFarmConfig.name, () => {
  it('applies the defaults when nothing is set (the embedded default has no REDIS_URL)', () => {
    const sut = loadFarmConfig({});
    expect(sut).toMatchObject({ port: 3000, prefix: 'satfarm', rateLimitPerMinute: 6000 });
    // No farm-wide solver: each job gets its game's default (GameDefinition.defaultSolver).
    expect(sut.solver).toBeUndefined();
    expect(sut.redisUrl).toBeUndefined();
    expect(sut.apiKeys).toBeUndefined();
  });

  it('reads every variable, treating blank ones as unset', () => {
    const sut = loadFarmConfig({
      REDIS_URL: 'redis://cache:6380/2',
      SATFARM_API_KEYS: 'aaaaaaaaaaaaaaaa, bbbbbbbbbbbbbbbb',
      SATFARM_SOLVER: 'cadical',
      SATFARM_WORKER_SLOTS: '6',
      PORT: '8080',
      SATFARM_PREFIX: '',
    });
    expect(sut).toMatchObject({
      redisUrl: 'redis://cache:6380/2',
      apiKeys: ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb'],
      solver: 'cadical',
      workerSlots: 6,
      port: 8080,
      prefix: 'satfarm',
    });
  });

  it('reads the solver limits and the horizon lock, none and 30 s when unset', () => {
    expect(loadFarmConfig({})).toMatchObject({ solverLimits: {}, horizonLockMs: 30_000 });
    const sut = loadFarmConfig({
      SATFARM_SOLVER_CPU_SECONDS: '600',
      SATFARM_SOLVER_MEMORY_MIB: '2048',
      SATFARM_HORIZON_LOCK_SEC: '10',
    });
    expect(sut).toMatchObject({ solverLimits: { cpuSeconds: 600, memoryMiB: 2048 }, horizonLockMs: 10_000 });
  });

  it("reads the formula memory limit, unset (the worker's own default) when absent", () => {
    expect(loadFarmConfig({}).formulaMemoryMiB).toBeUndefined();
    expect(loadFarmConfig({ SATFARM_FORMULA_MEMORY_MIB: '512' }).formulaMemoryMiB).toBe(512);
  });

  it('reads the level files a job may name, none when unset', () => {
    expect(loadFarmConfig({}).levelFiles).toEqual([]);
    expect(loadFarmConfig({ SATFARM_LEVEL_FILES: '/srv/a.dat, /srv/x/../b.dat' }).levelFiles).toEqual([
      '/srv/a.dat',
      '/srv/b.dat',
    ]);
  });

  it("reads the quick-plan thread's heap limit, 256 MiB when unset", () => {
    expect(loadFarmConfig({}).quickPlanHeapMiB).toBe(256);
    expect(loadFarmConfig({ SATFARM_QUICK_PLAN_HEAP_MIB: '64' }).quickPlanHeapMiB).toBe(64);
  });

  it('reads how solvers start, the spawn host when unset', () => {
    expect(loadFarmConfig({}).solverLaunch).toBe('host');
    expect(loadFarmConfig({ SATFARM_SOLVER_LAUNCH: 'node-host' }).solverLaunch).toBe('node-host');
    expect(loadFarmConfig({ SATFARM_SOLVER_LAUNCH: 'direct' }).solverLaunch).toBe('direct');
  });

  it('turns the fair-share gate on with a lookahead of 4 unless told otherwise', () => {
    expect(loadFarmConfig({}).fairShare).toEqual({ lookahead: 4 });
    expect(loadFarmConfig({ SATFARM_FAIR_LOOKAHEAD: '16' }).fairShare).toEqual({ lookahead: 16 });
    expect(loadFarmConfig({ SATFARM_FAIR_SHARE: 'off' }).fairShare).toBeUndefined();
  });

  it('reads the store of record and its retention, neither when unset', () => {
    const unset = loadFarmConfig({});
    expect(unset.databaseUrl).toBeUndefined();
    expect(unset.retentionDays).toBeUndefined();
    expect(loadFarmConfig({ SATFARM_DATABASE_URL: 'postgresql://db.internal/satfarm' }).databaseUrl).toBe(
      'postgresql://db.internal/satfarm',
    );
    expect(
      loadFarmConfig({
        SATFARM_DATABASE_URL: 'postgres://farm:pw@db:5433/satfarm',
        SATFARM_RETENTION_DAYS: '0.5',
        SATFARM_ARCHIVED_KEEP_SEC: '60',
      }),
    ).toMatchObject({
      databaseUrl: 'postgres://farm:pw@db:5433/satfarm',
      retentionDays: 0.5,
      archivedKeepSec: 60,
    });
    expect(unset.archivedKeepSec).toBeUndefined();
  });

  it.each(['SATFARM_RETENTION_DAYS', 'SATFARM_ARCHIVED_KEEP_SEC'])(
    'refuses %s without a store of record, naming it',
    (variable) => {
      expect(() => loadFarmConfig({ [variable]: '30' })).toThrow(
        new RegExp(`^${variable}: .*SATFARM_DATABASE_URL`),
      );
    },
  );

  it.each([
    ['SATFARM_FAIR_SHARE', 'yes'],
    ['SATFARM_FAIR_LOOKAHEAD', '0'],
    ['SATFARM_DATABASE_URL', 'mysql://db/satfarm'],
    ['SATFARM_DATABASE_URL', 'db.internal:5432/satfarm'],
    ['SATFARM_DATABASE_URL', 'postgres://'],
    ['SATFARM_RETENTION_DAYS', '0'],
    ['SATFARM_RETENTION_DAYS', '-3'],
    ['SATFARM_RETENTION_DAYS', 'a month'],
    ['SATFARM_ARCHIVED_KEEP_SEC', '-1'],
    ['SATFARM_ARCHIVED_KEEP_SEC', 'an hour'],
    ['SATFARM_SOLVER_LAUNCH', 'fork'],
    ['SATFARM_LEVEL_FILES', 'relative/levels.dat'],
    ['SATFARM_SOLVER_CPU_SECONDS', '0'],
    ['SATFARM_SOLVER_MEMORY_MIB', '1.5'],
    ['SATFARM_FORMULA_MEMORY_MIB', '0'],
    ['SATFARM_FORMULA_MEMORY_MIB', 'lots'],
    ['SATFARM_HORIZON_LOCK_SEC', '1'],
    ['SATFARM_QUICK_PLAN_HEAP_MIB', '0'],
    ['SATFARM_WORKER_SLOTS', 'many'],
    ['SATFARM_WORKER_SLOTS', '0'],
    ['PORT', '70000'],
    ['SATFARM_SOLVER', 'glucose'],
    ['REDIS_URL', 'localhost:6379'],
    ['SATFARM_PREFIX', 'has space'],
    ['SATFARM_API_KEYS', 'short'],
  ])('names %s in the error for %j', (variable, value) => {
    expect(() => loadFarmConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => loadFarmConfig({ [variable]: value })).toThrow(new RegExp(`^${variable}: `));
  });

  it('never echoes a key or a Redis URL back', () => {
    expect(() => loadFarmConfig({ SATFARM_API_KEYS: 'secret' })).toThrow(/^(?!.*secret)/);
    expect(() => loadFarmConfig({ REDIS_URL: 'http://user:hunter2@host' })).toThrow(/^(?!.*hunter2)/);
    expect(() => loadFarmConfig({ SATFARM_DATABASE_URL: 'mysql://user:hunter2@host/db' })).toThrow(
      /^(?!.*hunter2)/,
    );
  });
});
