import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JobResource } from '@satfarm/queue';

import { type Farm, startFarm } from './support/farm.js';
import { http } from './support/farm-client.js';
import { solversUnder } from './support/process-table.js';
import { waitUntil, within } from './support/waits.js';

/**
 * Splitting on the farm (docs/farm.md#splitting), one worker of four slots and the real kissat: a
 * job with `split: 0` has each horizon that runs split into cubes at once. The job ends with the
 * plan length the same job finds unsplit; its UNSAT horizon 5 is proven by the split (every cube's
 * lower bound exceeds 4, about 0.2 s against 0.7 s for the whole run); the SAT horizon's cubes run
 * on the worker as jobs of their own and stop when its whole run answers first.
 */
let farm: Farm;
let horizons: Queue;

beforeAll(async () => {
  // The small pattern databases bound the cubes: with the 3x3 tables the bound alone would refute
  // horizon 5 whole, and the split would go three moves deep to find cubes left to solve.
  farm = await startFarm({ name: 'split', workers: 1, slots: 4, env: { SATFARM_PDB_DIR: 'off' } });
  horizons = new Queue('satfarm-horizons', { connection: farm.redis(), prefix: farm.prefix });
  // The API's first split builds the small databases its cubes' bounds read (new jobs' bounds come
  // from the bound thread), longer than the SAT horizon below takes: one split job warms them.
  await within(ended(await submit({ split: 0 })), {
    what: 'the warm-up split job to end',
    timeoutMs: 30_000,
  });
});

afterAll(async () => {
  await horizons?.close();
  await farm?.stop();
});

/** Six quarter turns from solved; the sweep starts one below its lower bound (`trustBound: false`). */
const INSTANCE = { size: 3, scramble: "R U F' L D B", metric: 'qtm' };

async function submit(options: object): Promise<string> {
  const { status, body } = await http<{ id: string }>(farm.api.url, 'POST', '/v1/jobs', {
    game: 'cube',
    instance: INSTANCE,
    options: { parallelism: 2, trustBound: false, ...options },
  });
  expect(status).toBe(201);
  return body.id;
}

async function job(id: string): Promise<JobResource> {
  return (await http<JobResource>(farm.api.url, 'GET', `/v1/jobs/${id}`)).body;
}

/** Resolves once job `id` is over: at its final progress event, or at once if it ended before. */
async function ended(id: string): Promise<unknown> {
  const ack = await farm.progress.subscribe({ jobId: id });
  if (ack.job?.finishedAt != null) return ack.job;
  return farm.progress.jobEnd(id);
}

describe('a job split into cubes on a farm', () => {
  it('ends optimal with the unsplit plan length, its UNSAT horizon proven by every cube refuted', async () => {
    const whole = await submit({});
    await within(ended(whole), { what: 'the unsplit job to end', timeoutMs: 30_000 });
    const unsplit = await job(whole);
    expect(unsplit).toMatchObject({ status: 'optimal', verified: true });
    expect(unsplit.horizons.every((h) => h.split === undefined)).toBe(true);

    const id = await submit({ split: 0 });
    await within(ended(id), { what: 'the split job to end', timeoutMs: 30_000 });
    const resource = await job(id);
    expect(resource).toMatchObject({ status: 'optimal', verified: true, horizon: unsplit.horizon });
    const proven = resource.horizons.filter((h) => h.result === 'unsat');
    expect(proven.length).toBeGreaterThan(0);
    for (const line of proven) {
      expect(line.split).toBeDefined();
      expect(line.split!.refuted).toBe(line.split!.cubes);
      expect(line.split!.cubes).toBeGreaterThan(0);
    }
    // The SAT horizon's cubes went to the worker as horizon jobs of their own, `<job>.t<T>.c<index>`,
    // and stopped when its whole run answered first: no solver is left, no cube job runs on.
    const answered = resource.horizons.find((h) => h.result === 'sat')!;
    expect(answered.split).toMatchObject({ depth: 1, cubes: 12, bound: 0 });
    const cubeJobs = async () =>
      (await horizons.getJobs(['completed', 'failed', 'active'])).filter((j) =>
        j.id?.startsWith(`${id}.t${answered.t}.c`),
      );
    expect((await cubeJobs()).length).toBeGreaterThan(0);
    await waitUntil(() => solversUnder(farm.workers[0]!.pid).length === 0, {
      what: 'no kissat under the worker',
      timeoutMs: 10_000,
    });
    await waitUntil(
      async () =>
        (await Promise.all((await cubeJobs()).map((j) => j.getState()))).every((s) => s !== 'active'),
      {
        what: 'every cube job over',
        timeoutMs: 10_000,
      },
    );
  });
});
