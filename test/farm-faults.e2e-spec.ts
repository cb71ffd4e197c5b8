import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { Queue } from 'bullmq';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { pigeonhole } from '@satfarm/cnf';
import { solveParsed } from '@satfarm/engine';
import type { JobResource } from '@satfarm/queue';

import { gamesWithStaircase } from '../bench/farm/staircase.game.js';
import { type Farm, startFarm } from './support/farm.js';
import { http, metricValue, type ProgressClient } from './support/farm-client.js';
import type { ApiProcess, FarmProcess } from './support/farm-processes.js';
import { descendants, isAlive } from './support/process-table.js';
import type { QueueEventLog } from './support/queue-event-log.js';
import { waitUntil } from './support/waits.js';

/**
 * Faults a worker meets in production, each on real worker processes, Redis and kissat: a worker
 * killed without a drain, a formula build longer than the horizon lock, a solver that crashes or
 * prints nonsense, a solver that would run forever; and on the API's side, a quick-plan thread that runs out of memory. Every worker runs with its own temporary directory, so that anything left behind shows.
 */
let farm: Farm;
let api: ApiProcess;
let progress: ProgressClient;
let horizons: Queue;
/** The horizon queue's job events. */
let horizonLog: QueueEventLog;
/** Every solver-side process (spawn hosts, solvers) a test saw, checked for orphans after it. */
const seen = new Set<number>();
/** The jobs a test submitted, cancelled after it (a no-op for finished ones). */
const submitted: string[] = [];
let workerTmp: string | undefined;

beforeAll(async () => {
  farm = await startFarm({ name: 'faults' });
  ({ api, progress } = farm);
  horizons = new Queue('satfarm-horizons', { connection: farm.redis(), prefix: farm.prefix });
  horizonLog = await farm.queueLog('satfarm-horizons');
});

afterEach(async () => {
  // A test that failed half-way must not leave its job to the next test's workers.
  await Promise.all(submitted.splice(0).map((id) => http(api.url, 'DELETE', `/v1/jobs/${id}`)));
  await farm.stopWorkers();
  // No orphans: every solver and spawn host seen has gone, and no worker left a file behind.
  expect(await gone([...seen])).toEqual([]);
  seen.clear();
  if (workerTmp !== undefined) expect(readdirSync(workerTmp)).toEqual([]);
});

afterAll(async () => {
  await horizons?.close();
  await farm?.stop();
});

let workerCount = 0;

/** A worker process with `slots` slots, its own empty TMPDIR, and `env`. */
async function worker(slots: number, env: Record<string, string> = {}): Promise<FarmProcess> {
  workerTmp = join(farm.dir, `tmp-${++workerCount}`);
  mkdirSync(workerTmp);
  // A short horizon lock: a killed worker's horizons move on within seconds, not a minute.
  return farm.startWorker({ slots, env: { TMPDIR: workerTmp, SATFARM_HORIZON_LOCK_SEC: '2', ...env } });
}

const solversUnder = (process: FarmProcess): number[] => {
  const rows = descendants(process.pid);
  rows.forEach((row) => seen.add(row.pid));
  return rows.filter((row) => row.command === 'kissat').map((row) => row.pid);
};

/**
 * Waits until one of `processes` runs a solver, and returns its pid and the process holding it.
 * A solver is a kissat seen on two polls 50 ms apart: the worker's own `kissat --version` probe
 * is gone within milliseconds and must not be taken for one.
 */
async function solverRunning(processes: FarmProcess[]): Promise<{ pid: number; holder: FarmProcess }> {
  let previous = new Map<number, FarmProcess>();
  return waitUntil(
    () => {
      const now = new Map(processes.flatMap((p) => solversUnder(p).map((pid) => [pid, p] as const)));
      const steady = [...now].find(([pid, holder]) => previous.get(pid) === holder);
      previous = now;
      return steady !== undefined && { pid: steady[0], holder: steady[1] };
    },
    { what: 'a worker running a solver', timeoutMs: 20_000, everyMs: 50 },
  );
}

/**
 * The pids of `pids` still alive after up to 5 s (a killed parent's children die by signal, which
 * only the process table shows).
 */
async function gone(pids: number[]): Promise<number[]> {
  await waitUntil(() => !pids.some(isAlive), { what: 'the processes to end', timeoutMs: 5_000 }).catch(
    () => undefined,
  );
  return pids.filter(isAlive);
}

async function submit(
  game: string,
  instance: unknown,
  options: Record<string, unknown> = {},
): Promise<string> {
  const { status, body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', {
    game,
    instance,
    options,
  });
  expect(status).toBe(201);
  submitted.push(body.id);
  await progress.subscribe({ jobId: body.id });
  return body.id;
}

async function finished(jobId: string): Promise<JobResource> {
  await progress.jobEnd(jobId);
  return (await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body;
}

/** A directory holding a fake `kissat` for a worker's PATH: fault injection only. */
function fakeKissat(name: string, run: string): Record<string, string> {
  const dir = join(farm.dir, `fake-${name}`);
  mkdirSync(dir);
  const path = join(dir, 'kissat');
  writeFileSync(path, `#!/bin/sh\n[ "$1" = --version ] && { echo 4.0.2; exit 0; }\n${run}\n`);
  chmodSync(path, 0o755);
  return { PATH: `${dir}:${process.env.PATH ?? ''}` };
}

describe('a worker killed mid-solve (SIGKILL: no drain, no handler runs)', () => {
  it('loses nothing: its horizon goes to another worker, the answer is the one solved in-process, and its solver dies with it', async () => {
    // t=3 is PHP(10, 9), about a second of kissat; t=4 the optimum, one horizon at a time.
    const instance = { optimum: 4, lower: 3, holes: { 3: 9 } };
    const pair = [await worker(1), await worker(1)];
    const jobId = await submit('staircase', instance, {
      parallelism: 1,
      maxHorizon: 8,
      policy: 'consecutive',
    });
    const { pid: solver, holder: victim } = await solverRunning(pair);
    const survivor = pair.find((p) => p !== victim)!;
    const victimTree = descendants(victim.pid).map((row) => row.pid);
    expect(victimTree).toContain(solver);

    await victim.stop('SIGKILL');
    expect(victim.child.signalCode).toBe('SIGKILL');
    // The spawn host and the solver do not outlive the worker, though no code of the worker ran.
    expect(await gone(victimTree)).toEqual([]);

    const job = await finished(jobId);
    const game = gamesWithStaircase('staircase');
    const local = await solveParsed(game, game.parse(instance), {
      parallelism: 1,
      policy: 'consecutive',
      maxHorizon: 8,
    });
    expect({ status: job.status, horizon: job.horizon, bounds: job.bounds, solution: job.solution }).toEqual({
      status: local.status,
      horizon: local.horizon,
      bounds: local.bounds,
      solution: local.solution,
    });
    expect(job.status).toBe('optimal');
    expect(job.verified).toBe(true);
    // Each horizon is reported once, whatever happened to the first run of t=3.
    const ts = job.horizons.map((h) => h.t);
    expect(new Set(ts).size).toBe(ts.length);
    const t3 = await horizons.getJob(`${jobId}.t3`);
    expect(await t3!.getState()).toBe('completed');
    expect((t3!.returnvalue as { result: string; worker: string }).result).toBe('unsat');
    expect((t3!.returnvalue as { worker: string }).worker.endsWith(`:${survivor.pid}`)).toBe(true);
  });
});

describe('a formula build that holds the event loop longer than the horizon lock lasts', () => {
  /** The build above, as the first test measures it: the horizon's time outside its solver. */
  let buildMs: number | undefined;
  it('costs no lock (the build runs in a thread) and shows the horizon running meanwhile: it runs once, on one worker, and its job completes', async () => {
    const builder = await worker(1);
    // 100 x 100 cells at horizon 197: about 3 million clauses, seconds of building with the event
    // loop held, then a short UNSAT proof.
    const jobId = await submit(
      'snake',
      { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] },
      { parallelism: 1, maxHorizon: 197 },
    );
    const runningSeen = progress.horizon(jobId, 197, 'running').then(() => Date.now());
    const job = await finished(jobId);
    expect(job.status).toBe('unsatisfiable');
    expect(job.horizons).toMatchObject([{ t: 197, result: 'unsat' }]);
    // The premise: the horizon spent longer than the 2 s lock outside its solver, which is the
    // synchronous build (writing and reading the formula are a fraction of it).
    const { ms, solverCpuMs } = job.horizons[0]!;
    buildMs = ms - (solverCpuMs ?? ms);
    expect(buildMs).toBeGreaterThan(2000);
    // It never went back to the queue, and its job completed under the lock it began with.
    const t197 = await horizons.getJob(`${jobId}.t197`);
    // Shown running within a second of the worker taking it: the build holds its horizon's thread,
    // never the worker's event loop, which sends the started report.
    expect((await runningSeen) - t197!.processedOn!).toBeLessThan(1000);
    expect(await t197!.getState()).toBe('completed');
    expect(t197!.stalledCounter).toBe(0);
    expect(builder.stderr()).not.toMatch(/lock/i);
  });

  it('stops building at a cancel, so the slot is free again long before the build would end', async () => {
    expect(buildMs, 'the build time the test above measured').toBeDefined();
    await worker(1);
    const jobId = await submit(
      'snake',
      { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] },
      { parallelism: 1, maxHorizon: 197 },
    );
    const horizonId = `${jobId}.t197`;
    await horizonLog.when(horizonId, 'active');
    // Well into the build (the instance parses in milliseconds), then the cancel: a delay on
    // purpose, which no event marks.
    await new Promise((r) => setTimeout(r, 500));
    const cancelledAt = Date.now();
    expect((await http(api.url, 'DELETE', `/v1/jobs/${jobId}`)).status).toBe(200);
    await horizonLog.until(() => horizonLog.ended(horizonId));
    const horizon = await horizons.getJob(horizonId);
    expect(await horizon!.getState()).toBe('failed');
    expect(horizon!.failedReason).toBe('cancelled');
    // Ended within a second of the cancel, where the whole build took seconds more than the half
    // second it had run.
    const endedAfter = horizon!.finishedOn! - cancelledAt;
    expect(endedAfter).toBeLessThan(1000);
    expect(buildMs! - 500).toBeGreaterThan(endedAfter + 1000);
  });

  it('at a cancel, keeps the record of the horizon a worker failed, and runs none of those waiting', async () => {
    await worker(1);
    const jobId = await submit(
      'snake',
      { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] },
      { parallelism: 3, maxHorizon: 199 },
    );
    const [running, ...waiting] = [197, 198, 199].map((t) => `${jobId}.t${t}`);
    await progress.horizon(jobId, 197, 'running');
    for (const id of waiting) expect(await horizons.getJobState(id)).toMatch(/^(waiting|prioritized)$/);
    expect((await http(api.url, 'DELETE', `/v1/jobs/${jobId}`)).status).toBe(200);
    await horizonLog.until(() => horizonLog.ended(running!));
    expect(await horizons.getJobState(running!)).toBe('failed');
    expect((await horizons.getJob(running!))!.failedReason).toBe('cancelled');
    // Each waiting horizon is gone, or (when the freed slot took it before the removal) refused
    // unsolved by the cancel marker, once that worker has read it: none ran.
    for (const id of waiting) {
      const end = await waitUntil(
        async () => {
          const horizon = await horizons.getJob(id);
          if (horizon === undefined) return { state: 'removed' };
          const state = await horizon.getState();
          return (state === 'failed' || state === 'completed') && { state, reason: horizon.failedReason };
        },
        { what: `${id} removed or ended` },
      );
      if (end.state !== 'removed')
        expect(end).toEqual({ state: 'failed', reason: 'cancelled before it started' });
    }
  });
});

describe('a solver that crashes or prints garbage', () => {
  const dimacs = 'p cnf 2 2\n1 0\n-2 0\n';

  it.each([
    [
      'prints garbage',
      'cat > /dev/null\necho "hello world"\nexit 10',
      /unexpected output line 'hello world'/,
    ],
    ['dies by a signal', 'cat > /dev/null\nkill -SEGV $$', /SIGSEGV|signal/],
    [
      'claims SAT with a model that breaks a clause',
      'cat > /dev/null\necho "s SATISFIABLE"\necho "v -1 -2 0"\nexit 10',
      /model/i,
    ],
    ['claims SAT without a model', 'cat > /dev/null\necho "s SATISFIABLE"\nexit 10', /model|value/i],
  ])(
    'fails the job with the reason when it %s, after its retries, and never reports an answer',
    async (_name, run, reason) => {
      const runs = join(farm.dir, `runs-${workerCount}`);
      await worker(1, fakeKissat(String(workerCount), `echo run >> ${runs}\n${run}`));
      const failedHorizons = async (): Promise<number> =>
        metricValue((await http<string>(api.url, 'GET', '/metrics')).body, 'bullmq_job_failed_total', {
          queue: 'satfarm-horizons',
        });
      const failedBefore = await failedHorizons();
      const jobId = await submit('cnf', dimacs);
      const job = await finished(jobId);
      expect(job.status).toBe('failed');
      expect(job.error).toMatch(reason);
      expect(job.solution ?? null).toBeNull();
      // Every attempt was spent on it: a solver fault is retried (on any worker) before the job fails.
      expect(job.horizons).toHaveLength(1);
      expect(readFileSync(runs, 'utf8').trim().split('\n')).toHaveLength(4);
      // The farm's metrics count the horizon that failed once, not once per attempt. BullMQ counts
      // it as the worker's last attempt ends, with the queue's `failed` event, which may come just
      // after the job's end was reported.
      await horizonLog.until(() =>
        [...horizonLog.failedReasons.keys()].some((id) => id.startsWith(`${jobId}.`)),
      );
      const failedAfter = await failedHorizons();
      expect(failedAfter - failedBefore).toBe(1);
    },
  );

  it('retries a crash, and the answer comes from the run that worked', async () => {
    // Crashes on its first run only, then is the real kissat.
    const marker = join(farm.dir, 'crashed-once');
    const real = '/usr/bin/kissat';
    expect(existsSync(real)).toBe(true);
    await worker(
      1,
      fakeKissat('flaky', `[ -e ${marker} ] && exec ${real} "$@"\ntouch ${marker}\nkill -KILL $$`),
    );
    const jobId = await submit('cnf', dimacs);
    const job = await finished(jobId);
    expect(existsSync(marker)).toBe(true);
    expect(job).toMatchObject({ status: 'satisfiable', solution: { model: [1, -2] }, verified: true });
  });
});

describe('solver limits (SATFARM_SOLVER_CPU_SECONDS, SATFARM_SOLVER_MEMORY_MIB)', () => {
  it('run every solver of a worker under them, so that a horizon that would run for minutes ends at its CPU limit', async () => {
    const started = await worker(1, { SATFARM_SOLVER_CPU_SECONDS: '1', SATFARM_SOLVER_MEMORY_MIB: '1024' });
    // t=3 is PHP(13, 12): minutes of kissat.
    const jobId = await submit(
      'staircase',
      { optimum: 4, lower: 3, holes: { 3: 12 } },
      { parallelism: 1, maxHorizon: 3 },
    );
    const { pid: solver } = await solverRunning([started]);
    const limits = readFileSync(`/proc/${solver}/limits`, 'utf8');
    expect(limits).toMatch(/^Max cpu time\s+1\s+2\s+seconds/m);
    expect(limits).toMatch(
      new RegExp(`^Max address space\\s+${1024 * 1024 * 1024}\\s+${1024 * 1024 * 1024}\\s+bytes`, 'm'),
    );
    const t0 = performance.now();
    const job = await finished(jobId);
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(job.status).toBe('unknown');
    expect(job.horizons.find((h) => h.t === 3)?.result).toBe('unknown');
  });
});

describe('a formula larger than the worker holds (SATFARM_FORMULA_MEMORY_MIB)', () => {
  it('ends the horizons whose formula outgrows it, unknown with reason formula-limit and no solver run, and the worker goes on', async () => {
    const started = await worker(1, { SATFARM_FORMULA_MEMORY_MIB: '1' });
    // A 30x30 Snake at horizons 57 and 58: about 87,000 clauses, 1.4 MB each; under 1 MiB,
    // neither is built to its end.
    const big = await submit(
      'snake',
      { width: 30, height: 30, length: 3, start: [0, 0], apples: [[29, 29]] },
      { minHorizon: 58, maxHorizon: 58 },
    );
    const job = await finished(big);
    expect(job.status).toBe('unknown');
    expect(job.horizons.map((h) => [h.t, h.result, h.reason])).toEqual([
      [57, 'unknown', 'formula-limit'],
      [58, 'unknown', 'formula-limit'],
    ]);
    expect(job.horizons.every((h) => h.clauses === undefined && h.solverCpuMs === undefined)).toBe(true);
    // The live events say the same, with no formula figures.
    const event = await progress.horizon(big, 58, 'unknown');
    expect(event).toMatchObject({ reason: 'formula-limit' });
    expect(event.stats).toBeUndefined();
    // The same worker answers an instance whose formulas fit.
    const small = await submit('snake', { width: 3, height: 3, length: 1, start: [0, 0], apples: [[2, 2]] });
    expect(await finished(small)).toMatchObject({ status: 'optimal', horizon: 4, verified: true });
    expect(isAlive(started.pid)).toBe(true);
  });
});

describe('a quick-plan thread out of memory (SATFARM_QUICK_PLAN_HEAP_MIB)', () => {
  it('fails the search, not the job or the API: the sweep proves the optimum without the plan', async () => {
    await worker(1);
    // A replica whose quick-plan thread cannot even load its modules in 1 MiB of heap.
    const replica = await farm.startApi({ env: { SATFARM_QUICK_PLAN_HEAP_MIB: '1' } });
    try {
      const created = await http<{ id: string }>(replica.url, 'POST', '/v1/jobs', {
        game: 'hexahop',
        instance: { level: 'Deadly Snowflake' },
        options: { parallelism: 1 },
      });
      expect(created.status).toBe(201);
      submitted.push(created.body.id);
      await progress.subscribe({ jobId: created.body.id });
      const job = await finished(created.body.id);
      // With the plan (farm-api spec) its 22 moves come from the beam; here the solver finds them.
      expect(job).toMatchObject({ status: 'optimal', horizon: 22, verified: true });
      expect(job.horizons.some((h) => h.by !== undefined)).toBe(false);
      expect(job.horizons.find((h) => h.t === 21)?.result).toBe('unsat');
      const failed = async (): Promise<number> =>
        metricValue((await http<string>(replica.url, 'GET', '/metrics')).body, 'satfarm_quick_plans_total', {
          game: 'hexahop',
          outcome: 'failed',
        });
      expect(await failed()).toBe(1);
      expect(replica.stderr()).toMatch(/quick plan thread: .*out of memory/);
      expect((await http(replica.url, 'GET', '/health')).status).toBe(200);
      // The next job starts a new thread (which fails the same way) rather than waiting on the dead one.
      const next = await http<{ id: string }>(replica.url, 'POST', '/v1/jobs', {
        game: 'hexahop',
        instance: { level: 'Hive' },
      });
      expect(next.status).toBe(201);
      submitted.push(next.body.id);
      await progress.subscribe({ jobId: next.body.id });
      expect(await finished(next.body.id)).toMatchObject({ status: 'optimal', horizon: 24 });
      // The thread's failure is counted in the replica, which tells no one: only /metrics shows it.
      await waitUntil(async () => (await failed()) === 2, {
        what: "the second quick-plan thread's failure counted",
        everyMs: 100,
      });
      expect(replica.stderr().match(/quick plan thread: /g)).toHaveLength(2);
    } finally {
      await replica.stop();
    }
  });
});

describe("a horizon's thread dying under serve's solver slots", () => {
  it('fails that horizon after its retries, while the process serves on and the other slot runs undisturbed', async () => {
    // The spec's games plus one whose encoding ends the thread it runs in, as a fatal error
    // there would: `process.exit` in a worker thread stops that thread only.
    const crashing = join(farm.dir, 'crashing-games.mjs');
    writeFileSync(
      crashing,
      `import { lookup as farmGames } from ${JSON.stringify(pathToFileURL(farm.games).href)};
const crash = { ...farmGames('cnf'), encode: () => process.exit(7) };
export const lookup = (name, field) => (name === 'thread-crash' ? crash : farmGames(name, field));
`,
    );
    const crashFarm = await startFarm({ name: 'thread-crash', apis: [{ workerSlots: 2 }], games: crashing });
    const own = crashFarm.api;
    const ownProgress = crashFarm.progress;
    try {
      // A solver at work in the other slot: PHP(13, 12), minutes of kissat.
      const hard = await http<{ id: string }>(own.url, 'POST', '/v1/jobs', {
        game: 'cnf',
        instance: pigeonhole(13, 12).toDimacs(),
      });
      expect(hard.status).toBe(201);
      const { pid: solver } = await solverRunning([own]);
      const crash = await http<{ id: string }>(own.url, 'POST', '/v1/jobs', {
        game: 'thread-crash',
        instance: 'p cnf 2 1\n1 2 0\n',
      });
      expect(crash.status).toBe(201);
      await ownProgress.subscribe({ jobId: crash.body.id });
      await ownProgress.jobEnd(crash.body.id);
      const failed = (await http<JobResource>(own.url, 'GET', `/v1/jobs/${crash.body.id}`)).body;
      expect(failed.status).toBe('failed');
      expect(failed.error).toMatch(/the horizon thread stopped \(code 7\)/);
      // Every attempt ended a thread; the process and the other slot's solver lived on.
      expect(isAlive(own.pid)).toBe(true);
      expect(isAlive(solver)).toBe(true);
      expect((await http(own.url, 'GET', '/health')).status).toBe(200);
      // The slot's replacement thread takes the next horizon.
      const next = await http<{ id: string }>(own.url, 'POST', '/v1/jobs', {
        game: 'cnf',
        instance: 'p cnf 2 2\n1 0\n-1 -2 0\n',
      });
      await ownProgress.subscribe({ jobId: next.body.id });
      await ownProgress.jobEnd(next.body.id);
      expect((await http<JobResource>(own.url, 'GET', `/v1/jobs/${next.body.id}`)).body).toMatchObject({
        status: 'satisfiable',
        solution: { model: [1, -2] },
      });
      expect((await http(own.url, 'DELETE', `/v1/jobs/${hard.body.id}`)).status).toBe(200);
      expect(await gone([solver])).toEqual([]);
    } finally {
      await crashFarm.stop();
    }
  });
});
