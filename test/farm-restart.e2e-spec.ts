import { type AddressInfo, createServer } from 'node:net';

import { Queue, QueueEvents } from 'bullmq';
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
import { solversUnder } from './support/process-table.js';
import { runCli } from './support/run-cli.js';

const prefix = uniquePrefix('restart');
const spec = specDir();
let games: string;
let worker: FarmProcess;
const apis: ApiProcess[] = [];
const clients: ProgressClient[] = [];
let horizonEvents: QueueEvents;
let reports: Queue;
const completed = new Set<string>();
const onCompleted: Array<() => void> = [];

beforeAll(async () => {
  games = writeFarmGamesModule(spec.dir);
  worker = await startWorker(prefix, games, 2);
  const connection = (): Redis => new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null });
  horizonEvents = new QueueEvents('satfarm-horizons', { connection: connection(), prefix });
  horizonEvents.on('completed', ({ jobId }) => {
    completed.add(jobId);
    onCompleted.forEach((f) => f());
  });
  reports = new Queue('satfarm-reports', { connection: connection(), prefix });
  await horizonEvents.waitUntilReady();
});

afterAll(async () => {
  clients.forEach((c) => c.close());
  await horizonEvents?.close();
  await reports?.close();
  await Promise.all([...apis, worker].filter(Boolean).map((p) => p.stop()));
  await deletePrefix(prefix);
  spec.remove();
});

function horizonsCompleted(ids: string[]): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (ids.every((id) => completed.has(id))) resolve();
    };
    onCompleted.push(check);
    check();
  });
}

describe('the coordinator', () => {
  it('survives being killed mid-sweep: a new one resumes from Redis and applies the reports sent meanwhile', async () => {
    const first = await startApi(prefix, games);
    apis.push(first);
    const progress = await ProgressClient.connect(first.url);
    clients.push(progress);
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

    const second = await startApi(prefix, games);
    apis.push(second);
    const resumed = await ProgressClient.connect(second.url);
    clients.push(resumed);
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
    for (let i = 0; i < 500 && solvers().length > 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(solvers()).toEqual([]);
  });
});

describe('satfarm submit', () => {
  it('follows its job across a restart of the API it talks to, and prints the final job', async () => {
    const port = await freePort();
    const first = await startApi(prefix, games, { port });
    apis.push(first);
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
    let jobId: string | undefined;
    for (let i = 0; i < 300 && jobId === undefined; i++) {
      jobId = (await jobIds(first.url)).find((id) => !before.has(id));
      if (jobId === undefined) await new Promise((r) => setTimeout(r, 20));
    }
    expect(jobId).toBeDefined();
    // The job is listed as soon as it is created, before submit has the POST's answer; a kill in
    // between loses that answer, which submit rightly reports as a farm it cannot reach (exit 5).
    // So the kill waits until a worker runs one of the job's horizons, long after that answer.
    const watcher = await ProgressClient.connect(first.url);
    clients.push(watcher);
    const ack = await watcher.subscribe({ jobId: jobId! });
    if (!ack.job?.horizons.some((h) => h.result !== 'queued'))
      await watcher.horizonWhere((e) => e.jobId === jobId && e.state === 'running');
    // The API goes away with the job unfinished (no coordinator runs while it is down) and comes
    // back on the same address: submit's socket reconnects to a server that knows nothing of it.
    await first.stop('SIGKILL');
    const second = await startApi(prefix, games, { port });
    apis.push(second);
    const run = await Promise.race([
      submitted,
      new Promise<undefined>((r) => setTimeout(() => r(undefined), 60_000)),
    ]);
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
