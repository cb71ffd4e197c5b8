import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

import { Redis } from 'ioredis';

import type { JobResource } from '@satfarm/queue';

import {
  type BenchFarm,
  get,
  JobFollower,
  post,
  printTable,
  startBenchFarm,
  writeResult,
} from './farm-bench.fixture.js';
import { type MemoryPeaks, ProcessMemorySampler } from './process-memory.sampler.js';
import { median } from '../statistics.js';

/**
 * How time-to-optimal scales with the number of worker processes: a fleet of 1..N `satfarm
 * worker` processes of one solver slot each (the real worker entry point, on loopback, standing
 * in for pods), an API with the coordinator, and Redis. For each fleet size:
 *
 * - batch: 6 independent jobs (examples/php-8.cnf, about 1.4 s of kissat each), from the submit
 *   of the batch to the last final event;
 * - staircase: one horizon sweep whose six horizons below the optimum are equally hard (PHP(10, 9)
 *   each) with `parallelism` = workers: the case where more horizons in flight pay off;
 * - cube: one sweep of a 3x3 cube scramble of 8 moves, `parallelism` = workers: a real game, whose
 *   time is mostly its last horizon (the SAT one), so extra horizons in flight mostly compete with it.
 *
 * Each from the submit to the final event (the optimum proven).
 * Medians of `runs` runs, the load average beside each row. It also records what a pod needs: the
 * peak resident memory of a worker process, of one kissat (over these jobs and every bundled
 * example, solved once through the one-worker fleet), of the API, and Redis bytes per finished job
 * (kept SATFARM_JOB_TTL_SEC). On a machine with fewer cores than workers the extra workers
 * share cores: the table shows where that happens.
 *
 *   node dist/bench/farm/farm-worker-scaling.bench.js [max workers] [runs]
 *
 * Prints a table and writes bench/results/farm-worker-scaling.json.
 */

const MAX_WORKERS = Number(process.argv[2] ?? 4);
const RUNS = Number(process.argv[3] ?? 2);
const BATCH = Array.from({ length: 6 }, () => ({
  game: 'cnf',
  instance: readFileSync('examples/php-8.cnf', 'utf8'),
}));
const SWEEPS = {
  staircase: {
    game: 'staircase',
    instance: { optimum: 9, lower: 3, holes: { 3: 9, 4: 9, 5: 9, 6: 9, 7: 9, 8: 9 } },
  },
  cube: { game: 'cube', instance: { size: 3, scramble: "D B D B2 R L2 B' R2" } },
};
const TRIVIAL = { game: 'cnf', instance: 'p cnf 2 2\n1 2 0\n-1 0\n' };
const EXAMPLES: Array<{ game: string; file: string }> = [
  { game: 'cube', file: 'cube-2x2.json' },
  { game: 'cube', file: 'cube-3x3.json' },
  { game: 'snake', file: 'snake-8x8.json' },
  { game: 'hexahop', file: 'hexahop-hive.json' },
  { game: 'towers', file: 'towers-5.txt' },
  { game: 'singles', file: 'singles-6x6.txt' },
  { game: 'tictactoe', file: 'tictactoe.json' },
  { game: 'cnf', file: 'php-9.cnf' },
  { game: 'cnf', file: 'random3-200-r426-s3.cnf' },
];

/** Solves every bundled example once (for the memory figures), one after the other. */
async function solveExamples(farm: BenchFarm, follower: JobFollower): Promise<void> {
  for (const { game, file } of EXAMPLES) {
    const text = readFileSync(`examples/${file}`, 'utf8');
    const instance = file.endsWith('.json') ? (JSON.parse(text) as unknown) : text.trim();
    const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', { game, instance });
    await follower.subscribe({ jobId: id });
    const end = await follower.end(id);
    if (end.event.status === 'failed') throw new Error(`example ${file} failed`);
  }
}

async function batchMs(farm: BenchFarm, follower: JobFollower): Promise<number> {
  const start = performance.now();
  const { batchId, jobIds } = await post<{ batchId: string; jobIds: string[] }>(farm.url, '/v1/batches', {
    jobs: BATCH,
  });
  await follower.subscribe({ batchId });
  const ends = await Promise.all(jobIds.map((id) => follower.end(id)));
  for (const end of ends)
    if (end.event.status !== 'unsatisfiable') throw new Error(`batch job ended ${end.event.status}`);
  return Math.max(...ends.map((e) => e.at)) - start;
}

async function sweepMs(
  farm: BenchFarm,
  follower: JobFollower,
  sweep: { game: string; instance: unknown },
  parallelism: number,
): Promise<[number, number]> {
  const start = performance.now();
  const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', {
    ...sweep,
    options: { parallelism, policy: 'consecutive' },
  });
  await follower.subscribe({ jobId: id });
  const end = await follower.end(id);
  const job = await get<JobResource>(farm.url, `/v1/jobs/${id}`);
  if (job.status !== 'optimal' || !job.verified) throw new Error(`sweep ended ${job.status}`);
  return [end.at - start, job.horizon!];
}

/** Redis memory per finished job, over `n` trivial jobs (their records and their queue entries). */
async function redisBytesPerJob(farm: BenchFarm, follower: JobFollower, n: number): Promise<number> {
  const redis = new Redis(farm.redisUrl);
  const usedMemory = async (): Promise<number> =>
    Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
  try {
    const before = await usedMemory();
    const { batchId, jobIds } = await post<{ batchId: string; jobIds: string[] }>(farm.url, '/v1/batches', {
      jobs: Array.from({ length: n }, () => TRIVIAL),
    });
    await follower.subscribe({ batchId });
    await Promise.all(jobIds.map((id) => follower.end(id)));
    return ((await usedMemory()) - before) / n;
  } finally {
    await redis.quit();
  }
}

const rows: Array<Record<string, string | number>> = [];
let peaks: MemoryPeaks = { processMiB: 0, processRssMiB: 0, childMiB: 0, childrenSumMiB: 0 };
let apiMiB = 0;
let bytesPerJob = 0;
const optima: Record<string, number> = {};
const firstLoad = loadavg()[0]!;
for (let workers = 1; workers <= MAX_WORKERS; workers++) {
  const farm = await startBenchFarm(workers, workers);
  const follower = await JobFollower.connect(farm.url);
  const sampler = new ProcessMemorySampler(farm.pids.workers);
  const apiSampler = new ProcessMemorySampler([farm.pids.api]);
  sampler.start();
  apiSampler.start();
  try {
    // Untimed: every worker loads its code and the solver's version once.
    await Promise.all(
      Array.from({ length: workers }, async () => {
        const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', TRIVIAL);
        await follower.subscribe({ jobId: id });
        await follower.end(id);
      }),
    );
    const times: Record<'batch' | keyof typeof SWEEPS, number[]> = { batch: [], staircase: [], cube: [] };
    for (let run = 0; run < RUNS; run++) {
      times.batch.push(await batchMs(farm, follower));
      for (const [name, sweep] of Object.entries(SWEEPS)) {
        const [ms, horizon] = await sweepMs(farm, follower, sweep, workers);
        times[name as keyof typeof SWEEPS].push(ms);
        optima[name] = horizon;
      }
    }
    if (workers === 1) {
      bytesPerJob = await redisBytesPerJob(farm, follower, 200);
      await solveExamples(farm, follower);
    }
    const row: Record<string, string | number> = { workers };
    for (const [name, samples] of Object.entries(times)) {
      const ms = median(samples);
      const base = rows[0]?.[`${name}Ms`] as number | undefined;
      row[`${name}Ms`] = ms;
      row[`${name}Speedup`] = (base ?? ms) / ms;
    }
    row.load = loadavg()[0]!;
    rows.push(row);
    console.log(`workers ${workers}: ${JSON.stringify(row)}`);
  } finally {
    const seen = sampler.stop();
    peaks = {
      processMiB: Math.max(peaks.processMiB, seen.processMiB),
      processRssMiB: Math.max(peaks.processRssMiB, seen.processRssMiB),
      childMiB: Math.max(peaks.childMiB, seen.childMiB),
      childrenSumMiB: Math.max(peaks.childrenSumMiB, seen.childrenSumMiB),
    };
    apiMiB = Math.max(apiMiB, apiSampler.stop().processMiB);
    follower.close();
    await farm.stop();
  }
}

printTable(rows);
const sizing = {
  workerProcessPeakMiB: Math.ceil(peaks.processMiB),
  solverPeakMiB: Math.ceil(peaks.childMiB),
  apiProcessPeakMiB: Math.ceil(apiMiB),
  redisBytesPerFinishedJob: Math.round(bytesPerJob),
};
console.log(
  `peak RSS: worker process ${sizing.workerProcessPeakMiB} MiB, one kissat ${sizing.solverPeakMiB} MiB, ` +
    `api ${sizing.apiProcessPeakMiB} MiB; Redis ${sizing.redisBytesPerFinishedJob} bytes per finished job`,
);
console.log(
  `${availableParallelism()} cores; load average ${firstLoad.toFixed(2)} at start, ${loadavg()[0]!.toFixed(2)} at end`,
);
console.log(
  `wrote ${await writeResult('farm-worker-scaling', {
    date: new Date().toISOString(),
    cores: availableParallelism(),
    runs: RUNS,
    batch: `${BATCH.length} x examples/php-8.cnf`,
    sweeps: Object.fromEntries(
      Object.entries(SWEEPS).map(([name, s]) => [
        name,
        `${s.game} ${JSON.stringify(s.instance)}, optimum ${optima[name]}, parallelism = workers`,
      ]),
    ),
    loadAverage: { start: firstLoad, end: loadavg()[0] },
    rows,
    sizing,
  })}`,
);
