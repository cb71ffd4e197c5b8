import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JobResource } from '@satfarm/queue';

import { type Farm, startFarm } from './support/farm.js';
import { http } from './support/farm-client.js';
import type { FarmProcess } from './support/farm-processes.js';
import { solversUnder } from './support/process-table.js';
import { waitUntil, within } from './support/waits.js';

/**
 * The farm's portfolio (docs/farm.md#portfolio) on one worker of three slots, with the real
 * kissat: a horizon races its siblings on the slots no horizon wants, the first answer stops the
 * others, the record of races lands in Redis, and a sibling gives its slot back to a horizon that
 * waits for one.
 */
let farm: Farm;
let worker: FarmProcess;
let horizons: Queue;

beforeAll(async () => {
  farm = await startFarm({ name: 'portfolio', workers: 1, slots: 3 });
  worker = farm.workers[0]!;
  horizons = new Queue('satfarm-horizons', { connection: farm.redis(), prefix: farm.prefix });
});

afterAll(async () => {
  await horizons?.close();
  await farm?.stop();
});

async function submit(instance: object, options: object): Promise<string> {
  const { status, body } = await http<{ id: string }>(farm.api.url, 'POST', '/v1/jobs', {
    game: 'staircase',
    instance,
    options,
  });
  expect(status).toBe(201);
  return body.id;
}

async function job(id: string): Promise<JobResource> {
  return (await http<JobResource>(farm.api.url, 'GET', `/v1/jobs/${id}`)).body;
}

const noSolverLeft = (): Promise<true> =>
  waitUntil(() => solversUnder(worker.pid).length === 0, {
    what: 'no kissat under the worker',
    timeoutMs: 10_000,
  });

describe('a horizon racing a portfolio on a farm', () => {
  it('races its siblings on the idle slots: the first answer stands, the others stop, the record learns', async () => {
    // Horizon 3 is PHP(10, 9), about a second for kissat; 4 is trivial, 5 the optimum.
    const id = await submit({ optimum: 5, lower: 4, holes: { 3: 9 } }, { portfolio: 3, parallelism: 1 });
    await within(progressOf(id), { what: 'the job to end', timeoutMs: 60_000 });
    const resource = await job(id);
    expect(resource).toMatchObject({ status: 'optimal', horizon: 5, verified: true });
    const line = resource.horizons.find((h) => h.t === 3)!;
    expect(line.result).toBe('unsat');
    const labels = ['kissat/default/0', 'kissat/default/1', 'kissat/default/2'];
    expect(labels).toContain(line.config);
    // The other configurations started beside it (three idle slots) and ran until the answer.
    expect(line.raced?.length).toBeGreaterThanOrEqual(1);
    for (const other of line.raced ?? []) {
      expect(labels.filter((l) => l !== line.config)).toContain(other.config);
      expect(other.ms).toBeGreaterThanOrEqual(0);
    }
    await noSolverLeft();

    const tallies = await farm.redis().hgetall(`${farm.prefix}:farm:portfolio:staircase:unsat`);
    expect(Number(tallies[`${line.config}|wins`])).toBeGreaterThanOrEqual(1);
    expect(Number(tallies[`${line.config}|runs`])).toBeGreaterThanOrEqual(1);
  });

  it('gives a sibling’s slot back to a horizon that waits for one', async () => {
    // Horizon 3 is PHP(14, 13): minutes. Its own run and two siblings take all three slots.
    const hard = await submit({ optimum: 9, lower: 4, holes: { 3: 13 } }, { portfolio: 3, parallelism: 1 });
    await waitUntil(() => solversUnder(worker.pid).length === 3, {
      what: 'three kissat runs of horizon 3',
      timeoutMs: 20_000,
    });
    const started = Date.now();
    const quick = await submit({ optimum: 2, lower: 1 }, { parallelism: 1 });
    await within(progressOf(quick), { what: 'the quick job to end beside the race', timeoutMs: 30_000 });
    expect(await job(quick)).toMatchObject({ status: 'optimal', horizon: 2 });
    const waited = Date.now() - started;
    // The siblings look every half second and give way at the second look that sees work waiting.
    expect(waited).toBeLessThan(10_000);

    const gaveWay = await Promise.all(
      [1, 2].map(async (rank) => (await horizons.getJob(`${hard}.t3.s${rank}`))?.returnvalue as unknown),
    );
    expect(gaveWay).toContainEqual(expect.objectContaining({ result: 'unknown' }));
    // The horizon's own run never gave way.
    expect(await (await horizons.getJob(`${hard}.t3`))?.getState()).toBe('active');

    await http(farm.api.url, 'DELETE', `/v1/jobs/${hard}`);
    await noSolverLeft();
  });
});

/** Resolves once job `id` is over: at its final progress event, or at once if it ended before. */
async function progressOf(id: string): Promise<unknown> {
  const ack = await farm.progress.subscribe({ jobId: id });
  if (ack.job?.finishedAt != null) return ack.job;
  return farm.progress.jobEnd(id);
}
