import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { cubeLowerBound, generateScramble, parseCubeInstance } from '@satfarm/games';
import type { BatchCreated, JobResource } from '@satfarm/queue';

import { type Farm, startFarm } from './support/farm.js';
import { http } from './support/farm-client.js';
import { waitUntil } from './support/waits.js';

/**
 * The 3x3 bound's search (docs/games.md#cube) runs in the API's bound thread, not on its event
 * loop: a batch of deep scrambles, each searched to the node budget, leaves the API answering
 * meanwhile, and each job's sweep starts at the bound this process finds for it. The farm has no
 * solver slot, so every job but the shallow one stays queued.
 */
let farm: Farm;

beforeAll(async () => {
  farm = await startFarm({ name: 'cube-bounds', progress: false });
});

afterAll(async () => {
  await farm?.stop();
});

/** 25 random half-turn-metric moves: far beyond what the search proves, so each runs to its budget. */
const deep = (seed: number) => ({
  game: 'cube',
  instance: { size: 3, metric: 'htm', scramble: generateScramble(3, 25, seed).join(' ') },
});

describe("the API's bound thread", () => {
  it('keeps the API answering while a batch of deep 3x3 scrambles is searched, and starts each sweep at its bound', async () => {
    const jobs = [
      ...Array.from({ length: 40 }, (_, i) => deep(900 + i)),
      // Within the search's reach: its plan is the quick plan, and the job ends without a solver.
      { game: 'cube', instance: { size: 3, metric: 'htm', scramble: "B L' B' R' D' R D B'" } },
    ];
    // This process's own bounds, found before any request: the search holds its event loop.
    const expected = new Map(
      [0, 13, 39].map((i) => [i, cubeLowerBound(parseCubeInstance(jobs[i]!.instance))] as const),
    );
    let answering = true;
    let answered = 0;
    const poll = (async () => {
      while (answering) {
        // A held loop lets the server drop the kept-alive connection under a request: no answer.
        const live = await http(farm.api.url, 'GET', '/health/live').catch(() => undefined);
        if (live?.status === 200) answered++;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    })();
    const created = await http<BatchCreated>(farm.api.url, 'POST', '/v1/batches', { jobs });
    answering = false;
    const answeredMeanwhile = answered;
    await poll;
    expect(created.status).toBe(201);
    // Forty searches of about a fifth of a second each, and the move tables: a loop held that long
    // would have answered once or twice in all.
    expect(answeredMeanwhile).toBeGreaterThanOrEqual(20);

    const resource = async (id: string) =>
      (await http<JobResource>(farm.api.url, 'GET', `/v1/jobs/${id}`)).body;
    for (const [i, bound] of expected) {
      const job = await resource(created.body.jobIds[i]!);
      expect(job.status).toBe('queued');
      expect(job.bounds.lower).toBe(bound);
    }
    const shallow = await waitUntil(
      async () => {
        const job = await resource(created.body.jobIds[40]!);
        return job.status === 'optimal' && job;
      },
      { what: 'the shallow scramble answered by its quick plan' },
    );
    expect(shallow).toMatchObject({ horizon: 7, bounds: { lower: 7, upper: 7 } });
  });
});
