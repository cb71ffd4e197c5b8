import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JobResource } from '@satfarm/queue';

import { http, ProgressClient } from './support/farm-client.js';
import {
  type ApiProcess,
  deletePrefix,
  type FarmProcess,
  specDir,
  startApi,
  startWorker,
  TEST_REDIS_URL,
  uniquePrefix,
  writeFarmGamesModule,
} from './support/farm-processes.js';

/**
 * A worker's claim on a horizon (its BullMQ lock) while the event loop is held by a formula build,
 * on a real worker process, Redis and kissat, with the shortest lock the farm accepts.
 */
const prefix = uniquePrefix('lock');
const lockMs = 2000;
const spec = specDir();
let api: ApiProcess;
let worker: FarmProcess;
let progress: ProgressClient;
let horizons: Queue;

beforeAll(async () => {
  const games = writeFarmGamesModule(spec.dir);
  api = await startApi(prefix, games);
  progress = await ProgressClient.connect(api.url);
  worker = await startWorker(prefix, games, 1, { SATFARM_HORIZON_LOCK_SEC: String(lockMs / 1000) });
  horizons = new Queue('satfarm-horizons', {
    connection: new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null }),
    prefix,
  });
});

afterAll(async () => {
  progress?.close();
  await horizons?.close();
  await worker?.stop();
  await api?.stop();
  await deletePrefix(prefix);
  spec.remove();
});

describe('a horizon whose formula takes longer to build than the horizon lock lasts', () => {
  it('keeps its lock through the build: the horizon runs once, on one worker, and the job ends', async () => {
    const { status, body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', {
      game: 'snake',
      instance: { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] },
      options: { parallelism: 1, maxHorizon: 197 },
    });
    expect(status).toBe(201);
    await progress.subscribe({ jobId: body.id });
    await progress.jobEnd(body.id);
    const job = (await http<JobResource>(api.url, 'GET', `/v1/jobs/${body.id}`)).body;
    // 100 x 100 cells at horizon 197: about 3 million clauses, seconds of building (with the event
    // loop held), then a short UNSAT proof.
    expect(job.status).toBe('unsatisfiable');
    expect(job.horizons).toMatchObject([{ t: 197, result: 'unsat' }]);
    // The test's premise: the horizon spent longer than the lock lasts outside its solver, which is
    // the synchronous build (writing and reading the formula are a fraction of it).
    const { ms, solverCpuMs } = job.horizons[0]!;
    expect(ms - (solverCpuMs ?? ms)).toBeGreaterThan(lockMs);
    // The horizon never went back to the queue, and its job completed under the lock it began with.
    const t197 = await horizons.getJob(`${body.id}.t197`);
    expect(await t197!.getState()).toBe('completed');
    expect(t197!.stalledCounter).toBe(0);
    expect(worker.stderr()).not.toMatch(/lock/i);
  });
});
