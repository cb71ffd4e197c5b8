import { availableParallelism, loadavg } from 'node:os';

import { loadFarmConfig } from '@satfarm/queue';

import {
  type BenchFarm,
  JobFollower,
  percentile,
  post,
  printTable,
  startBenchFarm,
  writeResult,
} from './farm-bench.fixture.js';
import { cpuByRole } from './process-cpu.accounting.js';
import { redisCommandsDuring } from './redis-command.accounting.js';

/**
 * Latency and throughput of trivial jobs through the farm: a two-clause CNF per job, so the
 * figures are the farm's own overhead (HTTP, Redis, BullMQ, the coordinator, one kissat run).
 *
 * - latency: jobs one at a time, from just before `POST /v1/jobs` to the final `job` event on
 *   the websocket (targets: p50 <= 30 ms);
 * - throughput: many jobs in flight, submitted as batches of 100 and as single POSTs 16 at a time,
 *   from the first submit to the last final event (target >= 300 jobs/s).
 *
 * Run from the repository root after `npm run build` (a private redis-server is started unless
 * REDIS_URL is set):
 *
 *   node dist/bench/farm/farm-latency.bench.js [slots] [jobs] [worker processes]
 *
 * During the batch throughput run it also accounts the CPU each part of the farm spent per job
 * (api, workers, spawn hosts, solver processes, the private Redis, this client), against the CPU
 * the machine had per job: where the time goes when the cores are the limit; and, on the private
 * Redis, the commands and Lua scripts Redis ran per job, with its own time in them.
 *
 * Prints a table and writes bench/results/farm-latency.json.
 */

const SLOTS = Number(process.argv[2] ?? 4);
const JOBS = Number(process.argv[3] ?? 600);
/** Worker processes (0: the slots run in the API's process, as in `satfarm serve`). */
const WORKER_PROCESSES = Number(process.argv[4] ?? 0);
const TRIVIAL = { game: 'cnf', instance: 'p cnf 2 2\n1 2 0\n-1 0\n' };

async function latency(farm: BenchFarm, follower: JobFollower, n: number): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', TRIVIAL);
    await follower.subscribe({ jobId: id });
    const end = await follower.end(id);
    samples.push(end.at - start);
  }
  return samples;
}

async function throughputBatches(farm: BenchFarm, follower: JobFollower, n: number): Promise<number> {
  const start = performance.now();
  const ids: string[] = [];
  await Promise.all(
    Array.from({ length: Math.ceil(n / 100) }, async () => {
      const { batchId, jobIds } = await post<{ batchId: string; jobIds: string[] }>(farm.url, '/v1/batches', {
        jobs: Array.from({ length: 100 }, () => TRIVIAL),
      });
      ids.push(...jobIds);
      await follower.subscribe({ batchId });
    }),
  );
  const ends = await Promise.all(ids.map((id) => follower.end(id)));
  return ids.length / ((Math.max(...ends.map((e) => e.at)) - start) / 1000);
}

async function throughputSingles(
  farm: BenchFarm,
  follower: JobFollower,
  n: number,
  concurrency: number,
): Promise<number> {
  const start = performance.now();
  let next = 0;
  const ends: number[] = [];
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < n) {
        next++;
        const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', TRIVIAL);
        await follower.subscribe({ jobId: id });
        ends.push((await follower.end(id)).at);
      }
    }),
  );
  return n / ((Math.max(...ends) - start) / 1000);
}

const farm = await startBenchFarm(SLOTS, WORKER_PROCESSES);
const follower = await JobFollower.connect(farm.url);
try {
  await latency(farm, follower, 30);
  const samples = await latency(farm, follower, 200);
  const batchStart = performance.now();
  const {
    result: { result: batches, cpu },
    redis,
  } = await redisCommandsDuring(farm.redisUrl, () =>
    cpuByRole(farm.pids, () => throughputBatches(farm, follower, JOBS)),
  );
  // On a shared Redis (REDIS_URL set) the server-wide counts include other clients.
  const redisOwn = process.env.REDIS_URL === undefined;
  const batchSeconds = (performance.now() - batchStart) / 1000;
  const singles = await throughputSingles(farm, follower, Math.round(JOBS / 2), 16);
  const result = {
    slots: SLOTS,
    workerProcesses: WORKER_PROCESSES,
    /** How the workers started solvers (SATFARM_SOLVER_LAUNCH): the native spawn host by default. */
    solverLaunch: loadFarmConfig().solverLaunch,
    cores: availableParallelism(),
    loadAverage: loadavg()[0] ?? 0,
    latencyMs: {
      p50: percentile(samples, 50),
      p90: percentile(samples, 90),
      p99: percentile(samples, 99),
      n: samples.length,
    },
    throughputJobsPerSec: { batchesOf100: batches, singlePosts16InFlight: singles, jobs: JOBS },
    /** CPU milliseconds per job during the batch run, by part of the farm. */
    cpuMsPerJob: Object.fromEntries(Object.entries(cpu).map(([role, s]) => [role, (s * 1000) / JOBS])),
    /** CPU milliseconds the machine had per job during the batch run (cores x wall time / jobs). */
    cpuMsAvailablePerJob: (availableParallelism() * batchSeconds * 1000) / JOBS,
    /** Redis's commands and Lua scripts per job during the batch run (private Redis only). */
    redisPerJob: redisOwn
      ? {
          commands: redis.calls / JOBS,
          luaScripts: redis.scripts / JOBS,
          luaMs: redis.scriptMs / JOBS,
          allCommandsMs: redis.totalMs / JOBS,
        }
      : null,
    targets: { latencyP50Ms: 30, throughputJobsPerSec: 300 },
  };
  printTable([
    { measure: 'latency p50 (ms)', value: result.latencyMs.p50, target: '<= 30' },
    { measure: 'latency p90 (ms)', value: result.latencyMs.p90, target: '' },
    { measure: 'latency p99 (ms)', value: result.latencyMs.p99, target: '' },
    { measure: 'throughput, batches (jobs/s)', value: batches, target: '>= 300' },
    { measure: 'throughput, single POSTs (jobs/s)', value: singles, target: '>= 300' },
  ]);
  const perJob = Object.entries(result.cpuMsPerJob);
  printTable([
    ...perJob.map(([role, ms]) => ({ 'CPU per job, batch run': role, ms })),
    { 'CPU per job, batch run': 'total', ms: perJob.reduce((sum, [, ms]) => sum + ms, 0) },
    { 'CPU per job, batch run': `available (${result.cores} cores)`, ms: result.cpuMsAvailablePerJob },
  ]);
  if (result.redisPerJob !== null) {
    printTable(
      Object.entries(result.redisPerJob).map(([measure, value]) => ({
        'Redis per job, batch run': measure,
        value,
      })),
    );
  }
  console.log(
    `slots ${SLOTS} in ${WORKER_PROCESSES || 'the API'} process(es), ${result.cores} cores, load average ${result.loadAverage.toFixed(2)}`,
  );
  console.log(`wrote ${await writeResult('farm-latency', result)}`);
} finally {
  follower.close();
  await farm.stop();
}
