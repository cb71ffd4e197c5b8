import { randomBytes } from 'node:crypto';

import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';

import { FarmKeys } from '@satfarm/queue';
import { consecutivePolicy, initSweepState } from '@satfarm/sweep';

import type { JobMeta, JobState } from './job-record.js';
import { JobStore } from './job.store.js';

// Against the real Redis, under a prefix of this file's own, removed afterwards.
const prefix = `satfarm-unit-store-${process.pid}-${randomBytes(3).toString('hex')}`;
const redis = new Redis(process.env.SATFARM_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379');
const keys = new FarmKeys(prefix);
const second = redis.duplicate();

afterAll(async () => {
  await second.quit();
  const found = await redis.keys(`${prefix}:*`);
  if (found.length > 0) await redis.del(...found);
  await redis.quit();
});

function job(id: string): { meta: JobMeta; state: JobState } {
  return {
    meta: {
      id,
      game: 'cnf',
      planning: true,
      options: {
        maxHorizon: 5,
        parallelism: 1,
        solver: 'kissat',
        priority: 0,
        unique: false,
        policy: 'consecutive',
        presets: false,
      },
      createdAt: Date.now(),
      lowerBound: 0,
    },
    state: {
      status: 'queued',
      sweep: initSweepState({ lower: 0, max: 5, parallelism: 1, policy: consecutivePolicy }),
      sizes: {},
    },
  };
}

describe(JobStore.name, () => {
  const sut = new JobStore(redis, keys, 600);

  it('stores a job and reads it back, indexed by status', async () => {
    const { meta, state } = job('a');
    await sut.create([{ meta, instance: 'p cnf 1 1\n1 0\n', state }]);
    expect(await sut.load('a')).toMatchObject({ meta, state: { status: 'queued' }, version: 1 });
    expect(await sut.instance('a')).toBe('p cnf 1 1\n1 0\n');
    expect(await sut.ids('queued', 0, 10)).toContain('a');
    expect(await sut.load('missing')).toBeUndefined();
  });

  it('pages the index, and an empty or negative page reads no ids', async () => {
    await sut.create(['p1', 'p2', 'p3'].map((id) => ({ ...job(id), instance: 'x' })));
    expect(await sut.ids('queued', 0, 2)).toHaveLength(2);
    expect(await sut.ids('queued', 1, 1)).toHaveLength(1);
    for (const status of ['queued', undefined] as const) {
      expect(await sut.ids(status, 0, 0)).toEqual([]);
      expect(await sut.ids(status, 2, 0)).toEqual([]);
      expect(await sut.ids(status, 0, -1)).toEqual([]);
      expect(await sut.ids(status, -1, 1)).toEqual([]);
    }
  });

  it('moves a job between status indexes and sets cancel markers in one write', async () => {
    const { meta, state } = job('b');
    await sut.create([{ meta, instance: 'x', state }]);
    const written = await sut.update('b', (r) => ({
      state: { ...r.state, status: 'running' as const },
      markers: ['b.t3'],
    }));
    expect(written?.record.version).toBe(1);
    expect(await sut.ids('queued', 0, 100)).not.toContain('b');
    expect(await sut.ids('running', 0, 100)).toContain('b');
    expect(await redis.exists(keys.cancelled('b.t3'))).toBe(1);
    expect((await sut.load('b'))?.version).toBe(2);
  });

  it('applies concurrent updates one after the other, each on the state the previous one wrote', async () => {
    const { meta, state } = job('c');
    await sut.create([{ meta, instance: 'x', state }]);
    // Two stores (two coordinators) counting on the same job: none of the increments is lost.
    const other = new JobStore(second, keys, 600);
    const bump = (store: JobStore) =>
      store.update('c', (r) => ({
        state: { ...r.state, sizes: { n: { vars: (r.state.sizes.n?.vars ?? 0) + 1, clauses: 0 } } },
        markers: [],
      }));
    await Promise.all(Array.from({ length: 20 }, (_, i) => bump(i % 2 === 0 ? sut : other)));
    const record = await sut.load('c');
    expect(record?.state.sizes.n?.vars).toBe(20);
    expect(record?.version).toBe(21);
  });

  it('keeps a final resource and gives jobs of a batch their statuses', async () => {
    const d = job('d');
    const e = job('e');
    const created = await sut.create(
      [
        { meta: { ...d.meta, batchId: 'batch-1' }, instance: 'x', state: d.state },
        { meta: { ...e.meta, batchId: 'batch-1' }, instance: 'x', state: e.state },
      ],
      { batchId: 'batch-1', createdAt: 1, offset: 0, label: 'two' },
    );
    expect(created).toBe(true);
    await sut.update('d', (r) => ({
      state: { ...r.state, status: 'unsatisfiable' as const, finishedAt: 2 },
      resource: { id: 'd' } as never,
      markers: ['d'],
    }));
    expect(await sut.finalResource('d')).toEqual({ id: 'd' });
    expect(await redis.ttl(keys.job('d'))).toBeGreaterThan(0);
    expect(await sut.batch('batch-1')).toEqual({
      batchId: 'batch-1',
      createdAt: 1,
      label: 'two',
      size: 2,
      counts: { queued: 1, unsatisfiable: 1 },
    });
    expect(await sut.batchJobIds('batch-1')).toEqual(['d', 'e']);
    expect(await sut.statuses(['d', 'gone'])).toEqual(['unsatisfiable', undefined]);
  });

  it('appends to a batch only at its size, and notes its end', async () => {
    const parts = ['f', 'g', 'h'].map((id) => {
      const { meta, state } = job(id);
      return { meta: { ...meta, batchId: 'batch-2' }, instance: 'x', state };
    });
    expect(await sut.create([parts[0]!], { batchId: 'batch-2', createdAt: 1, offset: 0 })).toBe(true);
    // A part at an offset the batch does not end at stores nothing.
    expect(await sut.create([parts[1]!], { batchId: 'batch-2', createdAt: 1, offset: 0 })).toBe(false);
    expect(await sut.load('g')).toBeUndefined();
    expect(await sut.create([parts[1]!, parts[2]!], { batchId: 'batch-2', createdAt: 1, offset: 1 })).toBe(
      true,
    );
    for (const id of ['f', 'g', 'h']) {
      await sut.update(id, (r) => ({
        state: { ...r.state, status: 'optimal' as const, finishedAt: 2 },
        resource: { id } as never,
        markers: [],
      }));
    }
    const batch = await sut.batch('batch-2');
    expect(batch).toMatchObject({ size: 3, counts: { optimal: 3 } });
    expect(batch?.finishedAt).toBeGreaterThan(0);
    expect(await sut.batchIds(0, 10)).toEqual(expect.arrayContaining(['batch-1', 'batch-2']));
  });

  it('claims an idempotency key once', async () => {
    expect(await sut.claimBatchKey('k1', 'batch-a')).toBeUndefined();
    expect(await sut.claimBatchKey('k1', 'batch-b')).toBe('batch-a');
  });
});
