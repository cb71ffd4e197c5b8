import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { JobResource } from '@satfarm/queue';

import { type Farm, startFarm } from './support/farm.js';
import { http, metricValue, type ProgressClient } from './support/farm-client.js';
import type { ApiProcess, FarmProcess } from './support/farm-processes.js';
import { isAlive, solversUnder } from './support/process-table.js';
import { waitUntil } from './support/waits.js';

let farm: Farm;
let api: ApiProcess;
let workers: FarmProcess[];
let progress: ProgressClient;
const ended = new Map<string, string>();
const reportsDone = new Set<string>();
const waiters: Array<() => void> = [];

const kissatUnder = (worker: FarmProcess): number[] => solversUnder(worker.pid);

/** Resolves when `check` holds, re-checked on every queue event (no polling). */
function whenQueues(check: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const waiter = (): void => {
      if (!check()) return;
      waiters.splice(waiters.indexOf(waiter), 1);
      resolve();
    };
    waiters.push(waiter);
    waiter();
  });
}

/** Records kissat processes under each worker until both workers run one (spawn has no event). */
async function kissatOnBothWorkers(): Promise<Set<number>> {
  const seen = new Set<number>();
  await waitUntil(
    () => {
      const perWorker = workers.map(kissatUnder);
      perWorker.flat().forEach((pid) => seen.add(pid));
      return perWorker.every((pids) => pids.length > 0);
    },
    { what: 'kissat on both workers', timeoutMs: 10_000 },
  );
  return seen;
}

beforeAll(async () => {
  farm = await startFarm({ name: 'sweep', workers: 2 });
  ({ api, workers, progress } = farm);
  const [horizonEvents, reportEvents] = await Promise.all([
    farm.queueEvents('satfarm-horizons'),
    farm.queueEvents('satfarm-reports'),
  ]);
  horizonEvents.on('failed', ({ jobId, failedReason }) => {
    ended.set(jobId, failedReason);
    waiters.forEach((w) => w());
  });
  horizonEvents.on('completed', ({ jobId }) => {
    ended.set(jobId, 'completed');
    waiters.forEach((w) => w());
  });
  reportEvents.on('completed', ({ jobId }) => {
    reportsDone.add(jobId);
    waiters.forEach((w) => w());
  });
});

afterAll(async () => {
  await farm?.stop();
});

describe('a farm of one API and two worker processes', () => {
  it('shares a sweep between the workers, and a decisive result kills the other worker’s solver', async () => {
    // t=3 needs minutes (PHP(13, 12)), t=4 about a second (PHP(10, 9)): the UNSAT at 4 raises the
    // lower bound to 5 and makes t=3, running on the other worker, useless. (A sweep starts one
    // below the game's bound, 4, so that the optimum is backed by an UNSAT result.)
    const instance = { optimum: 5, lower: 4, holes: { 3: 12, 4: 9 } };
    const before = await http<string>(api.url, 'GET', '/metrics');
    const { status, body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', {
      game: 'staircase',
      instance,
      options: { parallelism: 2, policy: 'consecutive', maxHorizon: 5 },
    });
    expect(status).toBe(201);
    const jobId = body.id;
    const ack = await progress.subscribe({ jobId });
    expect(ack.ok).toBe(true);
    await Promise.all([progress.horizon(jobId, 3, 'running'), progress.horizon(jobId, 4, 'running')]);
    const solvers = await kissatOnBothWorkers();

    const end = await progress.jobEnd(jobId);
    expect(end).toMatchObject({
      status: 'optimal',
      bounds: { lower: 5, upper: 5 },
      horizon: 5,
      solution: { steps: 5 },
    });
    const job = (await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body;
    expect(job).toMatchObject({
      id: jobId,
      game: 'staircase',
      status: 'optimal',
      horizon: 5,
      verified: true,
      error: null,
    });
    expect(job.horizons.map((h) => [h.t, h.result])).toEqual([
      [3, 'cancelled'],
      [4, 'unsat'],
      [5, 'sat'],
    ]);
    expect(job.finishedAt).not.toBeNull();

    // The cancelled horizon's job fails for good once its processor has returned, i.e. once the
    // solver is reaped; its report then reaches the coordinator.
    await whenQueues(() => ended.has(`${jobId}.t3`) && reportsDone.has(`${jobId}.t3.finished.a0`));
    expect(ended.get(`${jobId}.t3`)).toBe('cancelled');
    for (const pid of solvers) expect(isAlive(pid)).toBe(false);
    for (const worker of workers) expect(kissatUnder(worker)).toEqual([]);

    const after = (await http<string>(api.url, 'GET', '/metrics')).body;
    const delta = (name: string, labels: Record<string, string> = {}): number =>
      metricValue(after, name, labels) - metricValue(before.body, name, labels);
    expect(delta('satfarm_jobs_total', { game: 'staircase', status: 'optimal' })).toBe(1);
    expect(delta('satfarm_horizons_total', { game: 'staircase', result: 'unsat' })).toBe(1);
    expect(delta('satfarm_horizons_total', { game: 'staircase', result: 'sat' })).toBe(1);
    expect(delta('satfarm_horizons_total', { game: 'staircase', result: 'cancelled' })).toBe(1);
    expect(delta('satfarm_cancel_latency_seconds_count')).toBe(1);
    expect(delta('satfarm_solver_seconds_count', { game: 'staircase', result: 'unsat' })).toBe(1);
    // BullMQ's count of failed horizon jobs includes the cancelled one (docs/farm.md, Metrics).
    expect(delta('bullmq_job_failed_total', { queue: 'satfarm-horizons' })).toBe(1);
    expect(delta('satfarm_horizons_total', { game: 'staircase', result: 'failed' })).toBe(0);
  });

  it('cancels a job on request and leaves no kissat process on any worker', async () => {
    const instance = { optimum: 9, lower: 3, holes: { 3: 12, 4: 12 } };
    const { body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', {
      game: 'staircase',
      instance,
      options: { parallelism: 2 },
    });
    const jobId = body.id;
    await progress.subscribe({ jobId });
    await Promise.all([progress.horizon(jobId, 3, 'running'), progress.horizon(jobId, 4, 'running')]);
    const solvers = await kissatOnBothWorkers();

    const cancelled = await http<JobResource>(api.url, 'DELETE', `/v1/jobs/${jobId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ id: jobId, status: 'cancelled' });
    expect((await progress.jobEnd(jobId)).status).toBe('cancelled');

    await whenQueues(() => ended.has(`${jobId}.t3`) && ended.has(`${jobId}.t4`));
    for (const pid of solvers) expect(isAlive(pid)).toBe(false);
    for (const worker of workers) expect(kissatUnder(worker)).toEqual([]);
    expect((await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body.status).toBe('cancelled');
    // Cancelling again changes nothing.
    expect((await http<JobResource>(api.url, 'DELETE', `/v1/jobs/${jobId}`)).body.status).toBe('cancelled');
  });

  it('lets a patient probe give way on its worker, then runs that horizon again under a new queue id', async () => {
    // bracket with 0.3 s of patience: t=3 is UNSAT at once, t=4 is PHP(10, 9) (about a second),
    // t=5 is the optimum. The ladder's rung 4 gives way after 0.3 s; the rung 5 finds the plan,
    // and with 4 the last open horizon the climber runs it again, without a limit, to its UNSAT.
    const instance = { optimum: 5, lower: 4, holes: { 4: 9 } };
    const { status, body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', {
      game: 'staircase',
      instance,
      options: { parallelism: 2, policy: 'bracket', patienceSec: 0.3, maxHorizon: 8 },
    });
    expect(status).toBe(201);
    const jobId = body.id;
    await progress.subscribe({ jobId });
    const end = await progress.jobEnd(jobId);
    expect(end).toMatchObject({ status: 'optimal', bounds: { lower: 5, upper: 5 }, horizon: 5 });

    const events = progress.horizons.filter((e) => e.jobId === jobId && e.t === 4).map((e) => e.state);
    expect(events).toContain('cancelled');
    expect(events.at(-1)).toBe('unsat');
    // Both runs of horizon 4 went through the queue and were answered: the first one stopped at its
    // limit (an `unknown` on the worker), the second under its own id.
    await whenQueues(() => ended.has(`${jobId}.t4`) && ended.has(`${jobId}.t4.r2`));
    expect(ended.get(`${jobId}.t4`)).toBe('completed');
    expect(ended.get(`${jobId}.t4.r2`)).toBe('completed');
    const job = (await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body;
    expect(job.horizons.find((h) => h.t === 4)).toMatchObject({ result: 'unsat', runs: 2 });
    for (const worker of workers) expect(kissatUnder(worker)).toEqual([]);
  });

  it('starts a sweep at minHorizon: the hard horizons under it never run, and the optimum is still proven', async () => {
    // Horizons 2 and 3 are PHP(13, 12), minutes each: only a sweep that skips them ends at once.
    const instance = { optimum: 8, lower: 1, holes: { 2: 12, 3: 12 } };
    const { status, body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', {
      game: 'staircase',
      instance,
      options: { parallelism: 2, minHorizon: 8 },
    });
    expect(status).toBe(201);
    const jobId = body.id;
    await progress.subscribe({ jobId });
    const end = await progress.jobEnd(jobId);
    expect(end).toMatchObject({ status: 'optimal', bounds: { lower: 8, upper: 8 }, horizon: 8 });
    const job = (await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body;
    expect(job.horizons.find((h) => h.t === 7)?.result).toBe('unsat');
    expect(Math.min(...job.horizons.map((h) => h.t))).toBe(7);
  });

  it('refuses a minHorizon above the largest horizon, or on a game without horizons', async () => {
    const bad = [
      { game: 'staircase', instance: { optimum: 5 }, options: { maxHorizon: 6, minHorizon: 7 } },
      { game: 'cnf', instance: 'p cnf 1 1\n1 0\n', options: { minHorizon: 2 } },
      { game: 'staircase', instance: { optimum: 5 }, options: { minHorizon: -1 } },
    ];
    for (const job of bad) {
      const { status, body } = await http<{ field: string }>(api.url, 'POST', '/v1/jobs', job);
      expect(status).toBe(400);
      expect(body.field).toBe('options.minHorizon');
    }
  });

  it('refuses the options a game would ignore with 400 naming them, as the CLI refuses its flags', async () => {
    const cnf = { game: 'cnf', instance: 'p cnf 1 1\n1 0\n' };
    const bad: Array<[object, string]> = [
      [{ ...cnf, options: { quickPlan: false } }, 'options.quickPlan'],
      [{ ...cnf, options: { presets: true } }, 'options.presets'],
      [{ ...cnf, options: { policy: 'probe' } }, 'options.policy'],
      [{ ...cnf, options: { patienceSec: 1 } }, 'options.patienceSec'],
      [{ ...cnf, options: { maxHorizon: 3 } }, 'options.maxHorizon'],
      [{ ...cnf, options: { maxHorizon: 3000 } }, 'options.maxHorizon'],
      [
        { game: 'staircase', instance: { optimum: 5 }, options: { policy: 'leap', patienceSec: 1 } },
        'options.patienceSec',
      ],
    ];
    for (const [job, field] of bad) {
      const { status, body } = await http<{ field: string; message: string }>(
        api.url,
        'POST',
        '/v1/jobs',
        job,
      );
      expect(status).toBe(400);
      expect(body.field).toBe(field);
      expect(body.message).toMatch(
        /applies to (planning games with a horizon sweep, not to cnf|the policies)/,
      );
    }
  });

  it('refuses a patience that is not a positive number of seconds, and queues nothing', async () => {
    const { status, body } = await http<{ message: unknown }>(api.url, 'POST', '/v1/jobs', {
      game: 'staircase',
      instance: { optimum: 5, lower: 4, holes: {} },
      options: { policy: 'bracket', patienceSec: 0 },
    });
    expect(status).toBe(400);
    expect(JSON.stringify(body)).toMatch(/patienceSec/);
  });
});
