import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';
import type { JobResource } from '@satfarm/queue';

import { gamesWithStaircase } from '../bench/farm/staircase.game.js';
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
import { type Manifest, renderOverlay } from './support/k8s-manifests.js';
import { isAlive, solversUnder } from './support/process-table.js';

/**
 * The drain a Kubernetes pod goes through on scale-in or a rolling update: SIGTERM to a worker
 * process in the middle of its solves. Workers here are processes on loopback, as pods would be.
 */
const prefix = uniquePrefix('drain');
const spec = specDir();
let games: string;
let api: ApiProcess;
let progress: ProgressClient;
let horizons: Queue;
const workers: FarmProcess[] = [];

beforeAll(async () => {
  games = writeFarmGamesModule(spec.dir);
  api = await startApi(prefix, games);
  progress = await ProgressClient.connect(api.url);
  horizons = new Queue('satfarm-horizons', {
    connection: new Redis(TEST_REDIS_URL, { maxRetriesPerRequest: null }),
    prefix,
  });
});

afterEach(async () => {
  await Promise.all(workers.splice(0).map((p) => p.stop()));
});

afterAll(async () => {
  progress?.close();
  await horizons?.close();
  await api?.stop();
  await deletePrefix(prefix);
  spec.remove();
});

async function worker(slots: number): Promise<FarmProcess> {
  const started = await startWorker(prefix, games, slots);
  workers.push(started);
  return started;
}

const kissatUnder = (process: FarmProcess): number[] => solversUnder(process.pid);

/** Waits until `processes` run `count` kissat solvers between them. */
async function solversRunning(processes: FarmProcess[], count: number): Promise<void> {
  for (let i = 0; i < 1000; i++) {
    if (processes.flatMap(kissatUnder).length >= count) return;
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`the workers never ran ${count} solvers`);
}

/**
 * Waits until one of `processes` runs a kissat solver: that process and its solvers, read in one
 * look (two looks may straddle the moment a solver starts or the process table is read).
 */
async function solverHolder(
  processes: FarmProcess[],
  horizonJobId: string,
): Promise<{ holder: FarmProcess; solvers: number[] }> {
  for (let i = 0; i < 1000; i++) {
    for (const holder of processes) {
      const solvers = kissatUnder(holder);
      if (solvers.length > 0) return { holder, solvers };
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  // Where the horizon went, and what the workers said, for whoever reads the failure.
  const job = await horizons.getJob(horizonJobId);
  const state = job === undefined ? 'gone' : await job.getState();
  const said = processes.map((p) => `${p.pid}: ${p.stderr().trim().split('\n').slice(-3).join(' | ')}`);
  throw new Error(
    `no worker ever ran a solver; ${horizonJobId} is ${state} (attempts ${job?.attemptsMade}, ` +
      `stalled ${job?.stalledCounter}, ${JSON.stringify(job?.returnvalue ?? job?.failedReason ?? null)}); ` +
      `workers: ${said.join('; ')}`,
  );
}

/** A completed horizon job's result and the pid of the worker that solved it. */
function solvedBy(summary: unknown): { result: string; pid: number } {
  const { result, worker } = summary as { result: string; worker: string };
  return { result, pid: Number(worker.slice(worker.lastIndexOf(':') + 1)) };
}

/** SIGTERM, and how long the process took to exit. */
async function terminate(process: FarmProcess): Promise<{ ms: number; signal: string | null }> {
  const exited = new Promise<string | null>((resolve) =>
    process.child.once('exit', (_code, signal) => resolve(signal)),
  );
  const start = performance.now();
  process.child.kill('SIGTERM');
  const signal = await exited;
  return { ms: performance.now() - start, signal };
}

/** The answer of the same instance solved in this process, as `satfarm solve` would. */
async function inProcess(input: unknown, parallelism: number) {
  const game = gamesWithStaircase('staircase');
  return solveParsed(game, game.parse(input), { parallelism, policy: 'consecutive', maxHorizon: 8 });
}

async function submit(input: unknown, parallelism: number): Promise<string> {
  const { status, body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', {
    game: 'staircase',
    instance: input,
    options: { parallelism, maxHorizon: 8, policy: 'consecutive' },
  });
  expect(status).toBe(201);
  await progress.subscribe({ jobId: body.id });
  return body.id;
}

describe('a worker receiving SIGTERM', () => {
  it('stops its solvers, hands its horizons back, and another worker finishes the jobs with the same answers', async () => {
    // Two jobs whose t=3 is PHP(10, 9) (about 1.5 s of kissat) and t=4 the optimum, one horizon at
    // a time: every solver seen is a t=3, which the optimum's proof needs, so none is cancelled.
    const instance = { optimum: 4, lower: 3, holes: { 3: 9 } };
    const pair = [await worker(2), await worker(2)];
    const jobIds = [await submit(instance, 1), await submit(instance, 1)];
    await solversRunning(pair, 2);
    const [stopped, survivor] =
      kissatUnder(pair[0]!).length >= kissatUnder(pair[1]!).length ? pair : [pair[1]!, pair[0]!];
    const solvers = kissatUnder(stopped!);

    const drain = await terminate(stopped!);
    expect(drain.signal).toBe('SIGTERM');
    // A pod gets its grace period to drain before the SIGKILL: the drain fits in every overlay's.
    for (const overlay of ['dev', 'prod']) {
      expect(drain.ms).toBeLessThan(terminationGracePeriodSeconds(await renderOverlay(overlay)) * 1000);
    }
    const plural = solvers.length === 1 ? 'solver' : 'solvers';
    expect(stopped!.stderr()).toMatch(
      new RegExp(`drained in \\d+ ms \\(${solvers.length} running ${plural} stopped and handed back\\)`),
    );
    expect(solvers.filter(isAlive)).toEqual([]);

    const local = await inProcess(instance, 1);
    for (const jobId of jobIds) {
      await progress.jobEnd(jobId);
      const job = (await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body;
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
      expect(job.status).toBe('optimal');
      expect(job.verified).toBe(true);
      // Solved, whole, by the survivor; the drain spent none of its attempts.
      const horizon = await horizons.getJob(`${jobId}.t3`);
      expect(await horizon!.getState()).toBe('completed');
      expect(solvedBy(horizon!.returnvalue)).toEqual({ result: 'unsat', pid: survivor!.pid });
      expect(horizon!.attemptsMade).toBe(1);
    }
    expect(kissatUnder(survivor!)).toEqual([]);
  });

  it('costs a horizon none of its attempts: one interrupted more times than it has attempts still ends solved', async () => {
    // One hard horizon (t=3); four workers in turn are stopped while they solve it (a horizon has
    // 4 attempts: had each stop spent one, the fourth would fail the job), and the fifth solves it.
    const instance = { optimum: 4, lower: 3, holes: { 3: 9 } };
    const fleet = await Promise.all(Array.from({ length: 5 }, () => worker(1)));
    const jobId = await submit(instance, 1);
    const killed: number[] = [];
    for (let i = 0; i < 4; i++) {
      const { holder, solvers } = await solverHolder(fleet, `${jobId}.t3`);
      killed.push(...solvers);
      expect((await terminate(holder)).signal).toBe('SIGTERM');
      fleet.splice(fleet.indexOf(holder), 1);
    }
    expect(killed).toHaveLength(4);
    expect(killed.filter(isAlive)).toEqual([]);
    const end = await progress.jobEnd(jobId);
    expect(end).toMatchObject({ status: 'optimal', horizon: 4, bounds: { lower: 4, upper: 4 } });
    const horizon = await horizons.getJob(`${jobId}.t3`);
    expect(solvedBy(horizon!.returnvalue)).toEqual({ result: 'unsat', pid: fleet[0]!.pid });
    expect(horizon!.attemptsMade).toBe(1);
  });
});

/** The worker pods' `terminationGracePeriodSeconds` in rendered manifests. */
function terminationGracePeriodSeconds(manifests: Manifest[]): number {
  const worker = manifests.find((m) => m.kind === 'Deployment' && m.metadata.name === 'satfarm-worker') as
    (Manifest & { spec: { template: { spec: { terminationGracePeriodSeconds: number } } } }) | undefined;
  if (worker === undefined) throw new Error('no worker Deployment in the rendered overlay');
  return worker.spec.template.spec.terminationGracePeriodSeconds;
}
