import { type AddressInfo, createServer } from 'node:net';

import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JobResource } from '@satfarm/queue';

import { type Farm, startFarm } from './support/farm.js';
import { http } from './support/farm-client.js';
import type { FarmProcess } from './support/farm-processes.js';
import { solversUnder } from './support/process-table.js';
import type { QueueEventLog } from './support/queue-event-log.js';
import { runCli } from './support/run-cli.js';
import { waitUntil, within } from './support/waits.js';

// One worker process with two slots; the APIs come and go in the tests.
let farm: Farm;
let worker: FarmProcess;
let horizonLog: QueueEventLog;
let reports: Queue;

beforeAll(async () => {
  farm = await startFarm({ name: 'restart', apis: [], workers: 1, slots: 2 });
  worker = farm.workers[0]!;
  horizonLog = await farm.queueLog('satfarm-horizons');
  reports = new Queue('satfarm-reports', { connection: farm.redis(), prefix: farm.prefix });
});

afterAll(async () => {
  await reports?.close();
  await farm?.stop();
});

function horizonsCompleted(ids: string[]): Promise<void> {
  return horizonLog.until(() => ids.every((id) => horizonLog.has(id, 'completed')));
}

describe('the coordinator', () => {
  it('survives being killed mid-sweep: a new one resumes from Redis and applies the reports sent meanwhile', async () => {
    const first = await farm.startApi();
    const progress = await farm.connectProgress(first);
    // t=3 and t=4 take about a second each (PHP(10, 9)); 5 is instant UNSAT, 6 the optimum.
    const instance = { optimum: 6, lower: 3, holes: { 3: 9, 4: 9 } };
    const { body } = await http<{ id: string }>(first.url, 'POST', '/v1/jobs', {
      game: 'staircase',
      instance,
      options: { parallelism: 2, maxHorizon: 8 },
    });
    const jobId = body.id;
    await progress.subscribe({ jobId });
    await Promise.all([progress.horizon(jobId, 3, 'running'), progress.horizon(jobId, 4, 'running')]);

    await first.stop('SIGKILL');
    // The workers finish both horizons while no coordinator runs: their answers wait in Redis.
    await horizonsCompleted([`${jobId}.t3`, `${jobId}.t4`]);
    const waiting = await reports.getJobCounts('waiting', 'prioritized', 'active');
    expect(
      (waiting.waiting ?? 0) + (waiting.prioritized ?? 0) + (waiting.active ?? 0),
    ).toBeGreaterThanOrEqual(2);

    const second = await farm.startApi();
    const resumed = await farm.connectProgress(second);
    await resumed.subscribe({ jobId });
    const end = await resumed.jobEnd(jobId);
    expect(end).toMatchObject({ status: 'optimal', bounds: { lower: 6, upper: 6 }, horizon: 6 });
    const job = (await http<JobResource>(second.url, 'GET', `/v1/jobs/${jobId}`)).body;
    const results = new Map(job.horizons.map((h) => [h.t, h.result]));
    expect([3, 4, 5].map((t) => results.get(t))).toEqual(['unsat', 'unsat', 'unsat']);
    expect(results.get(6)).toBe('sat');
    expect(job.verified).toBe(true);
    // No orphans: the worker runs no solver once the job has ended (a cancelled one dies in ms).
    const solvers = () => solversUnder(worker.pid);
    await waitUntil(() => solvers().length === 0, {
      what: 'no solver on the worker',
      timeoutMs: 5_000,
    }).catch(() => undefined);
    expect(solvers()).toEqual([]);
  });
});

describe('satfarm submit', () => {
  it('follows its job across a restart of the API it talks to, and prints the final job', async () => {
    const port = await freePort();
    const first = await farm.startApi({ port });
    // t=3 and t=4 take about a second each (PHP(10, 9)); 5 is instant UNSAT, 6 the optimum.
    const instance = { optimum: 6, lower: 3, holes: { 3: 9, 4: 9 } };
    const before = new Set(await jobIds(first.url));
    const submitted = runCli([
      'submit',
      'staircase',
      '--input',
      JSON.stringify(instance),
      '--api',
      first.url,
      '--parallel',
      '2',
      '--max-horizon',
      '8',
      '--json',
    ]);
    // The job is listed as soon as it is created, before submit has the POST's answer; a kill in
    // between loses that answer, which submit rightly reports as a farm it cannot reach (exit 5).
    // So the kill waits until a worker runs one of the job's horizons, long after that answer.
    const jobOf = (horizonId: string): string => horizonId.split('.')[0]!;
    const isNew = (horizonId: string): boolean => !before.has(jobOf(horizonId));
    await horizonLog.until(() => horizonLog.started.some(isNew));
    const jobId = jobOf(horizonLog.started.find(isNew)!);
    expect(await jobIds(first.url)).toContain(jobId);
    // The API goes away with the job unfinished (no coordinator runs while it is down) and comes
    // back on the same address: submit's socket reconnects to a server that knows nothing of it.
    await first.stop('SIGKILL');
    await farm.startApi({ port });
    const run = await within(submitted, { what: 'submit to end', timeoutMs: 60_000 }).catch(() => undefined);
    expect(run, 'submit still waiting a minute after the restart').toBeDefined();
    expect(run!.code, run!.stderr).toBe(0);
    const job = JSON.parse(run!.stdout) as JobResource;
    expect(job).toMatchObject({ id: jobId, status: 'optimal', horizon: 6, verified: true });
  });
});

/** A TCP port free on the loopback now, for a server that must come back on the same address. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function jobIds(url: string): Promise<string[]> {
  const { body } = await http<{ jobs: Array<{ id: string }> }>(url, 'GET', '/v1/jobs');
  return body.jobs.map((j) => j.id);
}
