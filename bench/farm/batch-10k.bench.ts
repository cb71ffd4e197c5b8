import { spawn } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

import { Redis } from 'ioredis';
import pg from 'pg';
import { type RandomGenerator, unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import { randomKSat } from '@satfarm/cnf';
import { generateSingles, generateTowers } from '@satfarm/engine';
import { generateScramble, parseTicTacToeInstance } from '@satfarm/games';
import { type BatchResource, FarmKeys } from '@satfarm/queue';

import { benchArgs, integerOption } from '../hexahop/bench-options.js';
import { get, printTable, startBenchFarm, writeResult } from './farm-bench.fixture.js';
import { ProcessMemorySampler } from './process-memory.sampler.js';
import { readProc } from './proc-files.js';
import { type RedisCommands, redisCommandsDuring } from './redis-command.accounting.js';

/**
 * A batch of N small mixed jobs (default 10,000) through `satfarm batch submit <folder> --wait`,
 * on a farm of one API (with the coordinator) and one worker process with `--slots` solver slots,
 * with a PostgreSQL store of record of its own (docs/batches.md):
 *
 *   node dist/bench/farm/batch-10k.bench.js [--jobs N] [--slots N]
 *
 * The instances are files in a temporary folder, in turn: a 2x2 cube scramble of 3 to 6 moves,
 * random 3-SAT on 30 variables, a tic-tac-toe position, a 4x4 Towers puzzle (from a pool of
 * TOWERS_POOL: each costs several kissat calls to generate) and a 5x5 Singles puzzle. It times
 * the submit (until the command prints the batch id, every part appended) and the run to the
 * command's exit, checks the batch (size and counts N, every job answered, exit 0, N rows in the
 * store), samples the memory of the API and the worker, Redis's `used_memory` and the rows
 * written to the store each second, then exports the results as JSON Lines and CSV (time,
 * bytes, API memory meanwhile, N lines or rows), from Redis, and again from the store once the
 * batch and its jobs are deleted from Redis (what the end of their keep does). PostgreSQL at 127.0.0.1:5432 (user postgres,
 * trust auth) gets a database of its own, dropped at the end; Redis is a private one unless
 * REDIS_URL is set. Prints a table and writes bench/results/batch-10k.json.
 */

const { args, fail } = benchArgs('batch-10k', {
  jobs: { type: 'string', default: '10000' },
  slots: { type: 'string', default: '2' },
});
const JOBS = integerOption(args.jobs, 1, 'jobs', fail);
const SLOTS = integerOption(args.slots, 1, 'slots', fail);
/** Distinct Towers puzzles, repeated through the batch. */
const TOWERS_POOL = 40;
const KINDS = ['cube', 'cnf', 'tictactoe', 'towers', 'singles'] as const;
type Kind = (typeof KINDS)[number];

const satfarm = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bin/satfarm');
const mib = (bytes: number): number => bytes / 2 ** 20;

/** A tic-tac-toe position of 0 to 5 marks, X first, that nobody has won yet. */
function ticTacToe(rng: RandomGenerator): { board: string[] } {
  for (;;) {
    const cells = Array.from({ length: 9 }, () => '.');
    const marks = unsafeUniformIntDistribution(0, 5, rng);
    for (let m = 0; m < marks; m++) {
      const empty = cells.flatMap((c, i) => (c === '.' ? [i] : []));
      cells[empty[unsafeUniformIntDistribution(0, empty.length - 1, rng)]!] = m % 2 === 0 ? 'X' : 'O';
    }
    const board = [0, 3, 6].map((r) => cells.slice(r, r + 3).join(''));
    try {
      parseTicTacToeInstance({ board });
      return { board };
    } catch {
      // Someone has three in a row: the game is over, not an instance.
    }
  }
}

/** Writes the N instance files, named so that their sorted order is the batch's order. */
async function writeInstances(dir: string, n: number): Promise<Record<Kind, number>> {
  const rng = xoroshiro128plus(20261128);
  const towers: string[] = [];
  for (let seed = 1; seed <= Math.min(TOWERS_POOL, Math.ceil(n / KINDS.length)); seed++)
    towers.push((await generateTowers({ size: 4, seed })).id);
  const counts: Record<Kind, number> = { cube: 0, cnf: 0, tictactoe: 0, towers: 0, singles: 0 };
  const width = String(n - 1).length;
  for (let i = 0; i < n; i++) {
    const kind = KINDS[i % KINDS.length]!;
    counts[kind]++;
    const name = join(dir, String(i).padStart(width, '0'));
    if (kind === 'cube') {
      const scramble = generateScramble(2, 3 + (i % 4), i).join(' ');
      await writeFile(`${name}.cube.json`, JSON.stringify({ size: 2, scramble }));
    } else if (kind === 'cnf') {
      await writeFile(`${name}.cnf`, [...randomKSat(30, 128, 3, i).dimacsChunks()].join(''));
    } else if (kind === 'tictactoe') {
      await writeFile(`${name}.tictactoe.json`, JSON.stringify(ticTacToe(rng)));
    } else if (kind === 'towers') {
      await writeFile(`${name}.towers`, towers[counts.towers % towers.length]!);
    } else {
      await writeFile(`${name}.singles`, (await generateSingles({ width: 5, seed: i })).id);
    }
  }
  return counts;
}

/** Runs `bin/satfarm args...`: its exit code, stdout, and when (performance.now()) each stdout line came. */
function runCli(
  cliArgs: string[],
  onStdoutLine: (line: string) => void = () => undefined,
  onStderrLine: (line: string) => void = () => undefined,
): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolveRun, reject) => {
    const child = spawn(satfarm, cliArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    createInterface({ input: child.stdout }).on('line', onStdoutLine);
    createInterface({ input: child.stderr }).on('line', (line) => {
      stderr += `${line}\n`;
      onStderrLine(line);
    });
    child.on('error', reject);
    child.on('close', (code) => resolveRun({ code, stderr }));
  });
}

/** Keys matching `pattern` (SCAN, so the farm is not held up). */
async function countKeys(redis: Redis, pattern: string): Promise<number> {
  let n = 0;
  let cursor = '0';
  do {
    const [next, found] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
    cursor = next;
    n += found.length;
  } while (cursor !== '0');
  return n;
}

/** Records (lines of JSON, rows of CSV) in a file: newlines outside double quotes (RFC 4180). */
async function countRecords(file: string): Promise<number> {
  let records = 0;
  let quoted = false;
  for await (const chunk of createReadStream(file, { encoding: 'utf8' }) as AsyncIterable<string>) {
    for (const ch of chunk) {
      if (ch === '"') quoted = !quoted;
      else if (ch === '\n' && !quoted) records++;
    }
  }
  return records;
}

/** A value sampled each second while `work` runs: the samples, with their time in seconds. */
async function sampledEachSecond<T>(
  read: () => Promise<number>,
  work: () => Promise<T>,
): Promise<{ result: T; samples: Array<[number, number]> }> {
  const samples: Array<[number, number]> = [];
  const start = performance.now();
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      samples.push([(performance.now() - start) / 1000, await read()]);
      await new Promise((r) => setTimeout(r, 1000));
    }
  })();
  try {
    return { result: await work(), samples };
  } finally {
    stopped = true;
    await loop;
    samples.push([(performance.now() - start) / 1000, await read()]);
  }
}

/** The largest and the mean rise a second of a cumulative count sampled over time. */
function rates(samples: Array<[number, number]>): { peakPerSecond: number; meanPerSecond: number } {
  let peak = 0;
  for (let i = 1; i < samples.length; i++) {
    const [t0, v0] = samples[i - 1]!;
    const [t1, v1] = samples[i]!;
    if (t1 > t0) peak = Math.max(peak, (v1 - v0) / (t1 - t0));
  }
  // The mean over the stretch where the count rises: from its first to its last change.
  const first = samples.findIndex(([, v]) => v > samples[0]![1]);
  const last = samples.findIndex(([, v]) => v === samples.at(-1)![1]);
  const span = first < 1 || last < first ? 0 : samples[last]![0] - samples[first - 1]![0];
  return { peakPerSecond: peak, meanPerSecond: span > 0 ? (samples.at(-1)![1] - samples[0]![1]) / span : 0 };
}

const loadAtStart = loadavg();
const database = `satfarm_bench_${process.pid}`;
const admin = new pg.Client({ host: '127.0.0.1', port: 5432, user: 'postgres', database: 'postgres' });
await admin.connect();
await admin.query(`CREATE DATABASE ${database}`);
const dir = await mkdtemp(join(tmpdir(), 'satfarm-batch-10k-'));
const databaseUrl = `postgres://postgres@127.0.0.1:5432/${database}`;
process.env.SATFARM_DATABASE_URL = databaseUrl;
try {
  const farm = await startBenchFarm(SLOTS, 1);
  const redis = new Redis(farm.redisUrl);
  const keys = new FarmKeys(farm.prefix);
  const store = new pg.Client({ connectionString: databaseUrl });
  try {
    await store.connect();
    let t = performance.now();
    const kinds = await writeInstances(dir, JOBS);
    const generateSec = (performance.now() - t) / 1000;
    console.log(`${JOBS} instances in ${dir} in ${generateSec.toFixed(1)} s: ${JSON.stringify(kinds)}`);

    const usedMemory = async (): Promise<number> =>
      Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    const storedJobs = async (): Promise<number> =>
      Number((await store.query<{ n: string }>('SELECT count(*) AS n FROM jobs')).rows[0]!.n);
    const redisBefore = await usedMemory();
    const sampler = new ProcessMemorySampler([farm.pids.api], 'kissat', 200);
    const workerSampler = new ProcessMemorySampler(farm.pids.workers, 'kissat', 200);
    sampler.start();
    workerSampler.start();
    let batchId = '';
    let submitSec = Number.NaN;
    let lastLine = '';
    let redisPeak = redisBefore;
    t = performance.now();
    const submitAndWait = () =>
      sampledEachSecond(
        async () => {
          redisPeak = Math.max(redisPeak, await usedMemory());
          return storedJobs();
        },
        () =>
          runCli(
            ['batch', 'submit', dir, '--wait', '--api', farm.url],
            (line) => {
              if (batchId !== '') return;
              batchId = line.trim();
              submitSec = (performance.now() - t) / 1000;
            },
            (line) => (lastLine = line),
          ),
      );
    // Redis's command counts are server-wide: only a private Redis has the farm's alone.
    let commands: RedisCommands | undefined;
    let sampled: Awaited<ReturnType<typeof submitAndWait>>;
    if (process.env.REDIS_URL) sampled = await submitAndWait();
    else ({ result: sampled, redis: commands } = await redisCommandsDuring(farm.redisUrl, submitAndWait));
    const { result: run, samples: rowSamples } = sampled;
    const runSec = (performance.now() - t) / 1000;
    const redisAtDone = await usedMemory();
    const markers = await countKeys(redis, `${keys.cancelled('')}*`);
    const api = sampler.stop();
    const worker = workerSampler.stop();
    console.log(`exit ${run.code}; last line: ${lastLine}`);
    if (run.code !== 0) console.error(run.stderr.split('\n').slice(-20).join('\n'));

    const batch = await get<BatchResource>(farm.url, `/v1/batches/${batchId}`);
    const countsSum = Object.values(batch.counts).reduce((a, b) => a + (b ?? 0), 0);
    // Finished jobs reach the store from a loop that follows their end (docs/batches.md).
    let rowsAtEnd = await storedJobs();
    for (let wait = 0; rowsAtEnd < JOBS && wait < 30; wait++) {
      await new Promise((r) => setTimeout(r, 1000));
      rowsAtEnd = await storedJobs();
    }
    const writes = rates(rowSamples);

    const exports: Array<Record<string, string | number>> = [];
    /** Both exports of the batch, each with the API's memory meanwhile; `from` says where it is read. */
    const exportBoth = async (from: string): Promise<void> => {
      for (const format of ['jsonl', 'csv'] as const) {
        const file = join(dir, `results-${from}.${format}`);
        const exportSampler = new ProcessMemorySampler([farm.pids.api], 'kissat', 20);
        const apiBefore = Number(/VmRSS:\s+(\d+)/.exec(readProc(farm.pids.api, 'status'))?.[1]) / 1024;
        exportSampler.start();
        const start = performance.now();
        const cli = ['batch', 'results', batchId, '--format', format, '--output', file, '--api', farm.url];
        const exported = await runCli(cli);
        const seconds = (performance.now() - start) / 1000;
        const peaks = exportSampler.stop();
        exports.push({
          from,
          format,
          exit: exported.code ?? -1,
          seconds,
          MiB: mib((await stat(file)).size),
          records: await countRecords(file),
          expected: format === 'csv' ? JOBS + 1 : JOBS,
          'api MiB before': apiBefore,
          'api MiB peak': peaks.processRssMiB,
        });
      }
    };
    await exportBoth('redis');
    // What the hour's keep ends with: Redis without the batch and its jobs, reads from the store.
    const redisBeforeDrop = await usedMemory();
    const jobKeys = (await redis.lrange(keys.batchJobs(batchId), 0, -1)).map((id) => keys.job(id));
    for (let i = 0; i < jobKeys.length; i += 1000) await redis.del(...jobKeys.slice(i, i + 1000));
    await redis.del(keys.batch(batchId), keys.batchJobs(batchId), keys.batchCounts(batchId));
    const redisFreedPerJob = (redisBeforeDrop - (await usedMemory())) / JOBS;
    await exportBoth('store');

    const summary: Record<string, string | number> = {
      jobs: JOBS,
      slots: SLOTS,
      'submit s': submitSec,
      'done s': runSec,
      'jobs/s': JOBS / runSec,
      'jobs/s after submit': JOBS / (runSec - submitSec),
      exit: run.code ?? -1,
      size: batch.size,
      'counts sum': countsSum,
      'api MiB': api.processMiB,
      'worker MiB': worker.processMiB,
      'redis MiB': mib(redisAtDone),
      'redis B/job': (redisAtDone - redisBefore) / JOBS,
      'redis B/job freed': redisFreedPerJob,
      'cancel markers': markers,
      'redis calls/job': commands === undefined ? '-' : commands.calls / JOBS,
      'pg rows/s peak': writes.peakPerSecond,
      'pg rows/s mean': writes.meanPerSecond,
      'pg rows': rowsAtEnd,
    };
    printTable([summary]);
    printTable(exports);
    console.log(`counts: ${JSON.stringify(batch.counts)}`);
    const loadAtEnd = loadavg();
    console.log(
      `${availableParallelism()} cores; load average ${loadAtStart.map((l) => l.toFixed(2)).join(' ')} at start, ` +
        `${loadAtEnd.map((l) => l.toFixed(2)).join(' ')} at end`,
    );
    const checks = {
      exitZero: run.code === 0,
      sizeIsN: batch.size === JOBS,
      countsSumToN: countsSum === JOBS,
      done: batch.done,
      everyJobStored: rowsAtEnd === JOBS,
      exportsComplete: exports.every((e) => e.exit === 0 && e.records === e.expected),
    };
    console.log(checks);
    console.log(
      `wrote ${await writeResult('batch-10k', {
        date: new Date().toISOString(),
        cores: availableParallelism(),
        jobs: JOBS,
        slots: SLOTS,
        workerProcesses: 1,
        mix: kinds,
        instances: {
          cube: '2x2, scrambles of 3 to 6 moves',
          cnf: 'random 3-SAT, 30 variables, 128 clauses',
          tictactoe: '3x3 positions of 0 to 5 marks',
          towers: `4x4, ${TOWERS_POOL} distinct puzzles repeated`,
          singles: '5x5',
        },
        generateSec,
        loadAverage: { start: loadAtStart, end: loadAtEnd },
        batchId,
        counts: batch.counts,
        summary,
        redis: {
          usedMemoryBefore: redisBefore,
          usedMemoryPeak: redisPeak,
          usedMemoryAtDone: redisAtDone,
          bytesPerFinishedJob: (redisAtDone - redisBefore) / JOBS,
          bytesFreedPerJobWhenDropped: redisFreedPerJob,
          cancelMarkersAtDone: markers,
          archivedKeepSec: 3600,
          commands: commands ?? null,
        },
        storeRowsEachSecond: rowSamples,
        exports,
        checks,
      })}`,
    );
    if (Object.values(checks).some((ok) => !ok)) process.exitCode = 1;
  } finally {
    redis.disconnect();
    await store.end().catch(() => undefined);
    await farm.stop();
  }
} finally {
  // The database and the files go even when the farm did not start.
  await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
  await admin.end();
  await rm(dir, { recursive: true, force: true });
}
