import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

import { QueueEvents } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';
import { gameById } from '@satfarm/games';
import type { JobResource } from '@satfarm/queue';

import { gamesWithStaircase } from '../bench/farm/staircase.game.js';
import { http, ProgressClient } from './support/farm-client.js';
import {
  type ApiProcess,
  type FarmProcess,
  specDir,
  startApi,
  startWorker,
  uniquePrefix,
  writeFarmGamesModule,
} from './support/farm-processes.js';
import { isAlive, solversUnder } from './support/process-table.js';
import { PrivateRedis } from './support/redis-server.js';
import { repoRoot } from './support/run-cli.js';
import { canMakeHosts, TestHosts } from './support/test-hosts.js';

/**
 * The farm with its parts on separate hosts: Redis, the API and two workers each in a network
 * namespace of its own, joined by a switch, the workers' links degraded or cut. The test process
 * is a client on the same network. Horizon locks last 2 s, so a worker cut off loses its horizon
 * within seconds.
 */
const prefix = uniquePrefix('hosts');
const spec = specDir();
const LOCK_SEC = 2;
let hosts: TestHosts;
let redis: PrivateRedis;
let api: ApiProcess;
let progress: ProgressClient;
let horizonEvents: QueueEvents;
let reportEvents: QueueEvents;
const workers = new Map<string, FarmProcess>();
/** Every solver a test saw, none of which may outlive it. */
const seenSolvers = new Set<number>();

const FINAL = new Set(['optimal', 'satisfiable', 'unsatisfiable', 'unknown', 'failed', 'cancelled']);

describe.runIf(canMakeHosts())('the farm across hosts', () => {
  beforeAll(async () => {
    hosts = await TestHosts.create(['redis', 'api', 'w1', 'w2'], { impairable: ['w1', 'w2'] });
    mkdirSync(join(spec.dir, 'redis'));
    redis = await PrivateRedis.start(join(spec.dir, 'redis'), randomBytes(12).toString('hex'), {
      launcher: hosts.launcher('redis'),
      host: hosts.address('redis'),
    });
    const games = writeFarmGamesModule(spec.dir);
    const env = { REDIS_URL: redis.url, SATFARM_HORIZON_LOCK_SEC: String(LOCK_SEC) };
    [api] = await Promise.all([
      startApi(prefix, games, { env, host: hosts.address('api'), launcher: hosts.launcher('api') }),
      ...['w1', 'w2'].map(async (name) =>
        workers.set(name, await startWorker(prefix, games, 1, env, hosts.launcher(name))),
      ),
    ]);
    progress = await ProgressClient.connect(api.url);
    const connection = { url: redis.url };
    horizonEvents = new QueueEvents('satfarm-horizons', { connection, prefix });
    reportEvents = new QueueEvents('satfarm-reports', { connection, prefix });
    await Promise.all([horizonEvents.waitUntilReady(), reportEvents.waitUntilReady()]);
  });

  afterAll(async () => {
    progress?.close();
    await horizonEvents?.close();
    await reportEvents?.close();
    await Promise.all([api, ...workers.values()].filter(Boolean).map((p) => p.stop()));
    await redis?.kill('SIGTERM');
    hosts?.remove();
    spec.remove();
    // Nothing the farm started outlives it, on any host.
    expect([...seenSolvers].filter(isAlive)).toEqual([]);
  });

  it('under 20-50 ms of delay and 3 % loss between the workers and Redis, a batch of sweeps ends with the in-process optima, verified', async () => {
    for (const name of ['w1', 'w2']) hosts.impair(name, { delayMs: 35, jitterMs: 15, lossPercent: 3 });
    const retransmittedBefore = retransmittedSegments('w1') + retransmittedSegments('w2');
    // The round trip from a worker's host to Redis: two crossings of a degraded link.
    const [min, , avg] = redisLatency('w1');
    expect(min).toBeGreaterThanOrEqual(40);
    expect(avg).toBeGreaterThanOrEqual(40);

    const cube = gameById('cube');
    const staircase = gamesWithStaircase('staircase');
    const cubes = [
      JSON.parse(readFileSync(join(repoRoot, 'examples/cube-2x2.json'), 'utf8')) as unknown,
      { size: 2, scramble: "F R' U2 R F2 U' R2" },
    ];
    // t = 1..4 are PHP(9, 8), about 0.4 s each; t = 5 the optimum.
    const stairs = [{ optimum: 5, lower: 1, holes: { 1: 8, 2: 8, 3: 8, 4: 8 } }];
    const jobs = [
      ...cubes.map((instance) => ({ game: 'cube', instance, options: { parallelism: 2 } })),
      ...Array.from({ length: 3 }, () => ({
        game: 'staircase',
        instance: stairs[0],
        options: { parallelism: 2, policy: 'consecutive', maxHorizon: 8 },
      })),
    ];
    const started = performance.now();
    const batch = await http<{ batchId: string; jobIds: string[] }>(api.url, 'POST', '/v1/batches', { jobs });
    expect(batch.status).toBe(201);
    await progress.subscribe({ batchId: batch.body.batchId });
    await progress.allEnded(batch.body.jobIds);
    const farmMs = performance.now() - started;

    const references = [
      ...(await Promise.all(cubes.map((c) => solveParsed(cube, cube.parse(c), { parallelism: 2 })))),
      ...(await Promise.all(
        jobs.slice(cubes.length).map((j) =>
          solveParsed(staircase, staircase.parse(j.instance), {
            parallelism: 2,
            policy: 'consecutive',
            maxHorizon: 8,
          }),
        ),
      )),
    ];
    for (const [i, jobId] of batch.body.jobIds.entries()) {
      const job = await resource(jobId);
      const local = references[i]!;
      expect({ status: job.status, horizon: job.horizon, bounds: job.bounds }).toEqual({
        status: local.status,
        horizon: local.horizon,
        bounds: local.bounds,
      });
      expect(job.status).toBe('optimal');
      expect(job.verified).toBe(true);
    }
    // The loss was real: the workers' hosts retransmitted.
    expect(retransmittedSegments('w1') + retransmittedSegments('w2')).toBeGreaterThan(retransmittedBefore);
    console.info(`batch of ${jobs.length} sweeps across degraded links: ${Math.round(farmMs)} ms`);
    for (const name of ['w1', 'w2']) hosts.clear(name);
  });

  it("a worker cut off longer than its lock loses its horizon to the other; its late report changes nothing", async () => {
    // t = 3 is PHP(11, 10), about 10 s of kissat; t = 4 the optimum, one horizon at a time.
    const instance = { optimum: 4, lower: 3, holes: { 3: 10 } };
    const options = { parallelism: 1, policy: 'consecutive', maxHorizon: 8 };
    const jobId = await submit('staircase', instance, options);
    const { name: cutName, solver } = await solverHolder();
    const survivor = workers.get(cutName === 'w1' ? 'w2' : 'w1')!;
    const stalled = horizonEvent('stalled', `${jobId}.t3`);
    const cutAt = performance.now();
    hosts.cut(cutName);

    await stalled;
    const takeoverMs = performance.now() - cutAt;
    const job = await jobEnd(jobId);
    const endedMs = performance.now() - cutAt;
    const game = gamesWithStaircase('staircase');
    const local = await solveParsed(game, game.parse(instance), options);
    expect({ status: job.status, horizon: job.horizon, bounds: job.bounds, solution: job.solution }).toEqual({
      status: local.status,
      horizon: local.horizon,
      bounds: local.bounds,
      solution: local.solution,
    });
    expect(job.verified).toBe(true);

    // Back on the network: whatever the cut-off worker says now comes after the answer.
    const lateReport = reportEvent('completed', `${jobId}.t3.finished.a0`);
    hosts.mend(cutName);
    const mendMs = performance.now() - cutAt;
    const aliveAtMend = isAlive(solver);
    await lateReport;
    const lateMs = performance.now() - cutAt;
    expect(await resource(jobId)).toEqual(job);
    console.info(
      `cut ${cutName}: horizon stalled after ${Math.round(takeoverMs)} ms; ended ${Math.round(endedMs)}; mend ${Math.round(mendMs)} (solver alive ${aliveAtMend}); late report ${Math.round(lateMs)}; ` +
        `solver ${solver} ${isAlive(solver) ? 'alive' : 'gone'}; ${survivor.pid}\n${workers.get(cutName)!.stderr()}`,
    );
  });
});

/** A job's resource. */
async function resource(jobId: string): Promise<JobResource> {
  return (await http<JobResource>(api.url, 'GET', `/v1/jobs/${jobId}`)).body;
}

async function submit(game: string, instance: unknown, options: Record<string, unknown>): Promise<string> {
  const { status, body } = await http<{ id: string }>(api.url, 'POST', '/v1/jobs', { game, instance, options });
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
 * The worker running a solver, and that solver: a kissat seen on two looks 50 ms apart (the
 * worker's own `kissat --version` probe is gone within milliseconds).
 */
async function solverHolder(): Promise<{ name: string; solver: number }> {
  let previous = new Map<number, string>();
  for (let i = 0; i < 400; i++) {
    const now = new Map(
      [...workers].flatMap(([name, worker]) => solversUnder(worker.pid).map((pid) => [pid, name] as const)),
    );
    for (const [pid, name] of now) {
      if (previous.get(pid) === name) {
        seenSolvers.add(pid);
        return { name, solver: pid };
      }
    }
    previous = now;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('no worker ever ran a solver');
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

/** TCP segments host `name` has retransmitted since its namespace was made. */
function retransmittedSegments(name: string): number {
  const snmp = execFileSync(hosts.launcher(name)[0]!, [...hosts.launcher(name).slice(1), 'cat', '/proc/net/snmp'], {
    encoding: 'utf8',
  });
  const [header, values] = snmp.split('\n').filter((line) => line.startsWith('Tcp:'));
  const column = header!.split(' ').indexOf('RetransSegs');
  return Number(values!.split(' ')[column]);
}

/** min, max and average ms of Redis PINGs from host `name` over a second (redis-cli --latency). */
function redisLatency(name: string): number[] {
  const [command, ...args] = hosts.launcher(name);
  const out = execFileSync(
    command!,
    [...args, 'redis-cli', '-h', redis.host, '-p', String(redis.port), '--no-auth-warning', '-a', redis.password, '--latency', '--raw'],
    { encoding: 'utf8' },
  );
  return out.trim().split(/\s+/).map(Number);
}
