import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';
import type { JobResource } from '@satfarm/queue';

import { gamesWithStaircase } from '../bench/farm/staircase.game.js';
import { type Farm, startFarm } from './support/farm.js';
import { http, type HttpAnswer, type ProgressClient } from './support/farm-client.js';
import { type ApiProcess, type FarmProcess, specDir } from './support/farm-processes.js';
import { isAlive, solversUnder } from './support/process-table.js';
import { PrivateRedis } from './support/redis-server.js';
import { waitUntil } from './support/waits.js';

/**
 * Redis killed (SIGKILL) and started again in the middle of a batch of sweeps: a private
 * redis-server of this spec, with append-only persistence, on its own loopback port and password.
 */
const spec = specDir();
const workerTmp = join(spec.dir, 'tmp');
let redis: PrivateRedis;
let farm: Farm;
let api: ApiProcess;
let progress: ProgressClient;
let workers: FarmProcess[];
const seen = new Set<number>();

beforeAll(async () => {
  mkdirSync(join(spec.dir, 'redis'));
  mkdirSync(workerTmp);
  redis = await PrivateRedis.start(join(spec.dir, 'redis'), randomBytes(12).toString('hex'));
  farm = await startFarm({ name: 'redis-restart', redisUrl: redis.url });
  ({ api, progress, workers } = farm);
  for (let i = 0; i < 2; i++) await farm.startWorker({ env: { TMPDIR: workerTmp } });
});

afterAll(async () => {
  await farm?.stop();
  await redis?.kill('SIGTERM');
  spec.remove();
});

/**
 * Polls `GET /v1/jobs/:id` of every job until all are final: their events may fall in the
 * outage, so only the API's answers can tell.
 */
function allFinal(ids: string[]): Promise<JobResource[]> {
  const final = new Set(['optimal', 'satisfiable', 'unsatisfiable', 'unknown', 'failed', 'cancelled']);
  return waitUntil(
    async () => {
      const jobs = await Promise.all(
        ids.map(async (id) => (await http<JobResource>(api.url, 'GET', `/v1/jobs/${id}`)).body),
      );
      return jobs.every((job) => final.has(job.status)) && jobs;
    },
    { what: 'every job of the batch to end', timeoutMs: 90_000, everyMs: 250 },
  );
}

describe('Redis restarted mid-sweep (append-only file, fsync always)', () => {
  it('loses no job: API and workers reconnect, every sweep ends with the in-process answer, and no secret shows', async () => {
    // Each sweep: t=1..4 are PHP(9, 8) (about 0.4 s each), t=5 the optimum.
    const instance = { optimum: 5, lower: 1, holes: { 1: 8, 2: 8, 3: 8, 4: 8 } };
    const options = { parallelism: 2, maxHorizon: 8, policy: 'consecutive' };
    const batch = await http<{ batchId: string; jobIds: string[] }>(api.url, 'POST', '/v1/batches', {
      jobs: Array.from({ length: 6 }, () => ({ game: 'staircase', instance, options })),
    });
    expect(batch.status).toBe(201);
    const { jobIds } = batch.body;
    await progress.subscribe({ batchId: batch.body.batchId });
    // Mid-sweep: some horizons decided, solvers running.
    await progress.horizonWhere((e) => e.state === 'unsat');
    await progress.horizonWhere((e) => e.state === 'unsat' && e.jobId !== progress.horizons[0]?.jobId);
    workers.flatMap((w) => solversUnder(w.pid)).forEach((pid) => seen.add(pid));

    await redis.kill('SIGKILL');
    const down = await http<unknown>(api.url, 'GET', '/health');
    expect(down.status).toBe(503);
    await redis.start();

    const jobs = await allFinal(jobIds);
    const game = gamesWithStaircase('staircase');
    const local = await solveParsed(game, game.parse(instance), options as { parallelism: number });
    for (const job of jobs) {
      expect({
        status: job.status,
        horizon: job.horizon,
        bounds: job.bounds,
        solution: job.solution,
      }).toEqual({
        status: local.status,
        horizon: local.horizon,
        bounds: local.bounds,
        solution: local.solution,
      });
      expect(job.verified).toBe(true);
      const ts = job.horizons.map((h) => h.t);
      expect(new Set(ts).size).toBe(ts.length);
    }
    // None duplicated: the batch and the job list hold each job once.
    const listed = await http<{ jobs: JobResource[] }>(api.url, 'GET', '/v1/jobs?limit=100');
    const listedIds = listed.body.jobs.map((j) => j.id);
    expect([...listedIds].sort()).toEqual([...jobIds].sort());

    // Nothing left behind by the workers: the solvers running at the kill have ended too.
    expect(workers.flatMap((w) => solversUnder(w.pid))).toEqual([]);
    expect(readdirSync(workerTmp)).toEqual([]);

    // The URL, its password and the address never reach a response or a log line.
    const answers: HttpAnswer[] = [
      down,
      await http(api.url, 'GET', '/health'),
      await http(api.url, 'GET', '/v1/farm'),
      await http(api.url, 'GET', '/metrics'),
      await http(api.url, 'GET', `/v1/jobs/${jobIds[0]}`),
    ];
    const texts = [
      ...answers.map((a) => JSON.stringify(a.body)),
      api.stderr(),
      ...workers.map((w) => w.stderr()),
    ];
    for (const text of texts) {
      expect(text).not.toContain(redis.password);
      expect(text).not.toContain(`127.0.0.1:${redis.port}`);
    }
    expect([...seen].filter(isAlive)).toEqual([]);
  });
});
