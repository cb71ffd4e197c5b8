import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { Queue, type QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';
import { gameById } from '@satfarm/games';
import type { JobResource } from '@satfarm/queue';

import { type Farm, startFarm } from './support/farm.js';
import { http, type ProgressClient } from './support/farm-client.js';
import { type ApiProcess, type FarmProcess, specDir } from './support/farm-processes.js';
import { isAlive, solversUnder } from './support/process-table.js';
import { PrivateRedis } from './support/redis-server.js';
import { repoRoot } from './support/run-cli.js';
import { canMakeHosts, TestHosts } from './support/test-hosts.js';
import { waitUntil } from './support/waits.js';

/**
 * The farm with its parts on separate hosts: Redis, the API and two workers each in a network
 * namespace of its own, joined by a switch, the workers' links degraded or cut. The test process
 * is a client on the same network. Horizon locks last 2 s, so a worker cut off loses its horizon
 * within seconds.
 */
let farm: Farm;
let spec: ReturnType<typeof specDir> | undefined;
const LOCK_SEC = 2;
let hosts: TestHosts;
let redis: PrivateRedis;
let api: ApiProcess;
let progress: ProgressClient;
let horizons: Queue;
let horizonEvents: QueueEvents;
let reportEvents: QueueEvents;
const workers = new Map<string, FarmProcess>();
/** Every solver a test saw, none of which may outlive it. */
const seenSolvers = new Set<number>();
/** What the tests measured, printed at the end. */
const timings: string[] = [];

const FINAL = new Set(['optimal', 'satisfiable', 'unsatisfiable', 'unknown', 'failed', 'cancelled']);

describe.runIf(canMakeHosts())('the farm across hosts', () => {
  beforeAll(async () => {
    spec = specDir();
    hosts = await TestHosts.create(['redis', 'api', 'w1', 'w2'], { impairable: ['w1', 'w2'] });
    mkdirSync(join(spec.dir, 'redis'));
    redis = await PrivateRedis.start(join(spec.dir, 'redis'), randomBytes(12).toString('hex'), {
      launcher: hosts.launcher('redis'),
      host: hosts.address('redis'),
    });
    farm = await startFarm({
      name: 'hosts',
      redisUrl: redis.url,
      env: { SATFARM_HORIZON_LOCK_SEC: String(LOCK_SEC) },
      apis: [{ host: hosts.address('api'), launcher: hosts.launcher('api') }],
    });
    ({ api, progress } = farm);
    const [w1, w2] = await farm.startWorkers([
      { launcher: hosts.launcher('w1') },
      { launcher: hosts.launcher('w2') },
    ]);
    workers.set('w1', w1).set('w2', w2);
    horizons = new Queue('satfarm-horizons', { connection: farm.redis(), prefix: farm.prefix });
    [horizonEvents, reportEvents] = await Promise.all([
      farm.queueEvents('satfarm-horizons'),
      farm.queueEvents('satfarm-reports'),
    ]);
  });

  afterAll(async () => {
    await horizons?.close();
    await farm?.stop();
    await redis?.kill('SIGTERM');
    hosts?.remove();
    spec?.remove();
    // Nothing the farm started outlives it, on any host.
    expect([...seenSolvers].filter(isAlive)).toEqual([]);
    if (timings.length > 0) console.info(timings.join('\n'));
  });

  it('puts each host on the test subnet alone: its loopback up, no route beyond the subnet', () => {
    for (const name of ['redis', 'api', 'w1', 'w2']) {
      expect(onHost(name, 'ip', '-o', 'link', 'show', 'dev', 'lo')).toMatch(/<LOOPBACK,UP,/);
      const routes = onHost(name, 'ip', '-4', 'route', 'show', 'table', 'main').trim().split('\n');
      expect(routes.map((line) => line.trim())).toEqual([
        `${hosts.subnet}.0/24 dev eth0 proto kernel scope link src ${hosts.address(name)}`,
      ]);
      expect(onHost(name, 'ip', '-6', 'route', 'show', 'table', 'main').includes('default')).toBe(false);
    }
  });

  it('under 20-50 ms of delay and 3 % loss each way between the workers and Redis, a batch of sweeps ends with the proven optima, verified', async () => {
    for (const name of ['w1', 'w2']) hosts.impair(name, { delayMs: 35, jitterMs: 15, lossPercent: 3 });
    const retransmittedBefore = retransmittedSegments('w1') + retransmittedSegments('w2');
    // A worker's round trip to Redis crosses its link twice: 40 ms at the least.
    const [min, max, avg] = redisLatency('w1');
    expect(min).toBeGreaterThanOrEqual(40);

    const cubes = [
      JSON.parse(readFileSync(join(repoRoot, 'examples/cube-2x2.json'), 'utf8')) as unknown,
      { size: 2, scramble: "F R' U2 R F2 U' R2" },
    ];
    // Below the optimum each horizon is PHP(9, 8), about 0.4 s of kissat.
    const stairs = [
      { optimum: 5, lower: 1, holes: { 1: 8, 2: 8, 3: 8, 4: 8 } },
      { optimum: 4, lower: 1, holes: { 1: 8, 2: 8, 3: 8 } },
      { optimum: 3, lower: 0, holes: { 0: 8, 1: 8, 2: 8 } },
    ];
    const options = { parallelism: 2, policy: 'consecutive', maxHorizon: 8 };
    const jobs = [
      ...cubes.map((instance) => ({ game: 'cube', instance, options })),
      ...stairs.map((instance) => ({ game: 'staircase', instance, options })),
    ];
    const started = performance.now();
    const batch = await http<{ batchId: string; jobIds: string[] }>(api.url, 'POST', '/v1/batches', { jobs });
    expect(batch.status).toBe(201);
    await progress.subscribe({ batchId: batch.body.batchId });
    await progress.allEnded(batch.body.jobIds);
    const farmMs = performance.now() - started;

    // The cubes' optima as `satfarm solve` proves them in this process; the staircases' by construction.
    const cube = gameById('cube');
    const expected = [
      ...(await Promise.all(cubes.map((c) => solveParsed(cube, cube.parse(c), options)))).map((local) => ({
        status: local.status,
        horizon: local.horizon,
        bounds: local.bounds,
      })),
      ...stairs.map(({ optimum }) => ({
        status: 'optimal',
        horizon: optimum,
        bounds: { lower: optimum, upper: optimum },
      })),
    ];
    const answers = await Promise.all(batch.body.jobIds.map(resource));
    expect(answers.map((job) => ({ status: job.status, horizon: job.horizon, bounds: job.bounds }))).toEqual(
      expected,
    );
    expect(expected.every((e) => e.status === 'optimal')).toBe(true);
    expect(answers.map((job) => job.verified)).toEqual(jobs.map(() => true));
    expect(answers.slice(cubes.length).map((job) => job.solution)).toEqual(
      stairs.map(({ optimum }) => ({ steps: optimum })),
    );
    // The loss was real: the workers' hosts retransmitted what their links dropped.
    const retransmitted = retransmittedSegments('w1') + retransmittedSegments('w2') - retransmittedBefore;
    expect(retransmitted).toBeGreaterThan(0);
    timings.push(
      `degraded links: ${jobs.length} sweeps in ${ms(farmMs)}; Redis round trip from w1 ` +
        `${min} to ${max} ms (${avg} on average); ${retransmitted} TCP segments retransmitted`,
    );
    for (const name of ['w1', 'w2']) hosts.clear(name);
  });

  it('a worker cut off mid-horizon for longer than its lock: the other worker takes the horizon over and answers, and the late answer of the first changes nothing', async () => {
    // t = 3 is PHP(10, 9), about a second of kissat; t = 4 the optimum, one horizon at a time.
    const jobId = await submit(staircaseJob(9));
    const { name: cutName, solver } = await solverHolder();
    const survivor = otherWorker(cutName);
    const stalled = horizonEvent('stalled', `${jobId}.t3`);
    const cutAt = performance.now();
    hosts.cut(cutName);

    await stalled;
    const takeoverMs = performance.now() - cutAt;
    const job = await jobEnd(jobId);
    expect(answerOf(job)).toEqual(STAIRCASE_ANSWER);
    expect(job.verified).toBe(true);
    expect(await solvedBy(`${jobId}.t3`)).toEqual({ result: 'unsat', pid: survivor.pid });
    // The first worker's solver ran to its end meanwhile; its answer waits in its host.
    expect(await gone([solver])).toEqual([]);

    // Back on the network: its report of t = 3 comes after the job's end, and BullMQ refuses it
    // the horizon job, whose lock it lost.
    const cutOff = workers.get(cutName)!;
    const lateReport = reportEvent('completed', `${jobId}.t3.finished.a0`);
    const refused = said(cutOff, `Missing lock for job ${jobId}.t3. moveToFinished`);
    const mendAt = performance.now();
    hosts.mend(cutName);
    await lateReport;
    const lateMs = performance.now() - mendAt;
    await refused;
    await said(cutOff, `could not renew lock for job ${jobId}.t3`);
    expect(await resource(jobId)).toEqual(job);
    expect(await horizonState(`${jobId}.t3`)).toBe('completed');
    expect(await solvedBy(`${jobId}.t3`)).toEqual({ result: 'unsat', pid: survivor.pid });
    noSolverLeft();
    timings.push(`answer: stalled ${ms(takeoverMs)} after the cut; late report ${ms(lateMs)} after the mend`);
  });

  it('a job cancelled while a worker solving it is cut off stays cancelled when the worker comes back', async () => {
    const jobId = await submit(staircaseJob(9));
    const { name: cutName, solver } = await solverHolder();
    const refused = horizonEvent('failed', `${jobId}.t3`);
    hosts.cut(cutName);
    const cancelled = await http<JobResource>(api.url, 'DELETE', `/v1/jobs/${jobId}`);
    expect(cancelled.body.status).toBe('cancelled');
    // The horizon stalls, and the other worker refuses it: its job is over.
    expect(await refused).toMatchObject({ failedReason: 'cancelled before it started' });
    expect(await gone([solver])).toEqual([]);

    const lateReport = reportEvent('completed', `${jobId}.t3.finished.a0`);
    hosts.mend(cutName);
    await lateReport;
    expect(await resource(jobId)).toEqual(cancelled.body);
    noSolverLeft();
  });

  it("a worker back on the network after losing its horizon stops solving it at once, and the job ends with the other's answer", async () => {
    // t = 3 is PHP(11, 10), about 10 s of kissat.
    const jobId = await submit(staircaseJob(10));
    const { name: cutName, solver } = await solverHolder();
    const survivor = otherWorker(cutName);
    const stalled = horizonEvent('stalled', `${jobId}.t3`);
    hosts.cut(cutName);
    await stalled;
    const survivorSolver = await solverOf(survivor);

    const learned = said(workers.get(cutName)!, `could not renew lock for job ${jobId}.t3`);
    const mendAt = performance.now();
    hosts.mend(cutName);
    await learned;
    const learnedMs = performance.now() - mendAt;
    // Killed as its worker learns the lock is another's, not seconds later at the end of its proof.
    expect(await gone([solver], 2000)).toEqual([]);
    const stoppedMs = performance.now() - mendAt;
    expect(isAlive(survivorSolver)).toBe(true);

    const job = await jobEnd(jobId);
    expect(answerOf(job)).toEqual(STAIRCASE_ANSWER);
    expect(job.verified).toBe(true);
    expect(await solvedBy(`${jobId}.t3`)).toEqual({ result: 'unsat', pid: survivor.pid });
    noSolverLeft();
    timings.push(
      `lost lock: the cut-off worker learned it ${ms(learnedMs)} after the mend, its solver died at ${ms(stoppedMs)}`,
    );
  });
});

/** A staircase job whose t = 3 is PHP(holes + 1, holes) and t = 4 the optimum, one horizon at a time. */
function staircaseJob(holes: number) {
  return {
    game: 'staircase',
    instance: { optimum: 4, lower: 3, holes: { 3: holes } },
    options: { parallelism: 1, policy: 'consecutive', maxHorizon: 8 },
  };
}

/** Every staircase above, by construction (the game's UNSAT below the optimum, SAT at it). */
const STAIRCASE_ANSWER = {
  status: 'optimal',
  horizon: 4,
  bounds: { lower: 4, upper: 4 },
  solution: { steps: 4 },
};

function answerOf(job: JobResource) {
  return { status: job.status, horizon: job.horizon, bounds: job.bounds, solution: job.solution };
}

function otherWorker(name: string): FarmProcess {
  return workers.get(name === 'w1' ? 'w2' : 'w1')!;
}

/**
 * A completed horizon job's result and the pid of the worker that solved it. The worker reports
 * before BullMQ marks its job completed, so the farm's job may end a moment before it has one.
 */
async function solvedBy(horizonJobId: string): Promise<{ result: string; pid: number }> {
  const { result, worker } = await waitUntil(
    async () =>
      ((await horizons.getJob(horizonJobId))?.returnvalue ?? false) as
        { result: string; worker: string } | false,
    { what: `${horizonJobId} completed` },
  );
  return { result, pid: Number(worker.slice(worker.lastIndexOf(':') + 1)) };
}

async function horizonState(horizonJobId: string): Promise<string> {
  return (await horizons.getJob(horizonJobId))!.getState();
}

/** No worker runs a solver. */
function noSolverLeft(): void {
  expect([...workers.values()].flatMap((w) => solversUnder(w.pid))).toEqual([]);
}

/** Resolves once `process` has printed `text` on stderr. */
function said(process: FarmProcess, text: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!process.stderr().includes(text)) return;
      process.child.stderr!.off('data', check);
      resolve();
    };
    // After the process's own listener, which gathers what stderr() returns.
    process.child.stderr!.on('data', check);
    check();
  });
}

/** The pids of `pids` still alive after up to `ms` (only the process table shows their end). */
async function gone(pids: number[], ms = 30_000): Promise<number[]> {
  await waitUntil(() => !pids.some(isAlive), { what: 'the processes to end', timeoutMs: ms }).catch(
    () => undefined,
  );
  return pids.filter(isAlive);
}

const ms = (value: number): string => `${Math.round(value)} ms`;

/** A job's resource. */
async function resource(jobId: string): Promise<JobResource> {
  return (await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body;
}

async function submit(job: { game: string; instance: unknown; options: unknown }): Promise<string> {
  const { status, body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', job);
  expect(status).toBe(201);
  await progress.subscribe({ jobId: body.id });
  return body.id;
}

async function jobEnd(jobId: string): Promise<JobResource> {
  await progress.jobEnd(jobId);
  const job = await resource(jobId);
  expect(FINAL.has(job.status)).toBe(true);
  return job;
}

/**
 * The worker (of `among`, by name) running a solver, and that solver: a kissat seen on two looks
 * 50 ms apart (the worker's own `kissat --version` probe is gone within milliseconds).
 */
async function solverHolder(among = [...workers.keys()]): Promise<{ name: string; solver: number }> {
  let previous = new Map<number, string>();
  const holder = await waitUntil(
    () => {
      const now = new Map(
        among.flatMap((name) => solversUnder(workers.get(name)!.pid).map((pid) => [pid, name] as const)),
      );
      const steady = [...now].find(([pid, name]) => previous.get(pid) === name);
      previous = now;
      return steady !== undefined && { name: steady[1], solver: steady[0] };
    },
    { what: `a solver on ${among.join(' or ')}`, timeoutMs: 20_000, everyMs: 50 },
  );
  seenSolvers.add(holder.solver);
  return holder;
}

/** The solver `worker` runs (waiting for one). */
async function solverOf(worker: FarmProcess): Promise<number> {
  const name = [...workers].find(([, w]) => w === worker)![0];
  return (await solverHolder([name])).solver;
}

/** Resolves with the first `event` of horizon job `jobId` on the horizons queue. */
function horizonEvent(event: 'stalled' | 'active' | 'failed' | 'completed', jobId: string): Promise<unknown> {
  return queueEvent(horizonEvents, event, jobId);
}

/** Resolves with the first `event` of report job `jobId` on the reports queue. */
function reportEvent(event: 'completed' | 'added', jobId: string): Promise<unknown> {
  return queueEvent(reportEvents, event, jobId);
}

function queueEvent(events: QueueEvents, event: string, jobId: string): Promise<unknown> {
  return new Promise((resolve) => {
    const listener = (args: { jobId: string }): void => {
      if (args.jobId !== jobId) return;
      events.off(event as 'completed', listener);
      resolve(args);
    };
    events.on(event as 'completed', listener);
  });
}

/** What `command` prints when run on host `name`. */
function onHost(name: string, ...command: string[]): string {
  const [launch, ...args] = [...hosts.launcher(name), ...command];
  return execFileSync(launch!, args, { encoding: 'utf8' });
}

/** TCP segments host `name` has retransmitted since its namespace was made. */
function retransmittedSegments(name: string): number {
  const snmp = onHost(name, 'cat', '/proc/net/snmp');
  const [header, values] = snmp.split('\n').filter((line) => line.startsWith('Tcp:'));
  const column = header!.split(' ').indexOf('RetransSegs');
  return Number(values!.split(' ')[column]);
}

/** min, max and average ms of Redis PINGs from host `name` over a second (redis-cli --latency). */
function redisLatency(name: string): number[] {
  const auth = ['-h', redis.host, '-p', String(redis.port), '--no-auth-warning', '-a', redis.password];
  return onHost(name, 'redis-cli', ...auth, '--latency', '--raw')
    .trim()
    .split(/\s+/)
    .map(Number);
}
