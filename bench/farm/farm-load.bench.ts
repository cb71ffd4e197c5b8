import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

import { io } from 'socket.io-client';

import type { JobEventPayload, JobResource } from '@satfarm/queue';

import { get, post, printTable, startBenchFarm, writeResult } from './farm-bench.fixture.js';

/**
 * Load: mixed jobs submitted in bursts to a farm of one API (with the coordinator) and one worker
 * process, then checked: every job completed, with the same answer as every other job of its
 * kind, none lost, none duplicated (each id once in the job list, one final event each), and the
 * resident memory of the API and the worker after each round, to see whether it stays flat.
 *
 *   node dist/bench/farm/farm-load.bench.js [jobs per round] [rounds] [worker slots]
 *
 * Defaults: 2 rounds of 1,000 jobs (2,000 in all; a round is a multiple of 200), 2 slots. Each round goes in bursts of 200
 * (two batches of 50 and 100 single POSTs, 5 at a time), a burst every 250 ms, all on loopback.
 * Prints a table and writes bench/results/farm-load.json.
 */

const PER_ROUND = Number(process.argv[2] ?? 1000);
const ROUNDS = Number(process.argv[3] ?? 2);
const SLOTS = Number(process.argv[4] ?? 2);
const BURST = 200;
if (PER_ROUND % BURST !== 0) throw new RangeError(`jobs per round must be a multiple of ${BURST}`);
const FINAL = new Set(['optimal', 'satisfiable', 'unsatisfiable', 'unknown', 'failed', 'cancelled']);

const example = (name: string): string => readFileSync(`examples/${name}`, 'utf8');
const KINDS: Array<{ kind: string; game: string; instance: unknown }> = [
  { kind: 'cnf sat', game: 'cnf', instance: 'p cnf 3 3\n1 2 0\n-1 3 0\n-3 0\n' },
  { kind: 'cnf unsat (php 6)', game: 'cnf', instance: example('php-6.cnf') },
  { kind: 'staircase sweep', game: 'staircase', instance: { optimum: 3, lower: 0, holes: { 2: 5 } } },
  { kind: 'tictactoe', game: 'tictactoe', instance: JSON.parse(example('tictactoe.json')) as unknown },
  { kind: 'towers 5', game: 'towers', instance: example('towers-5.txt').trim() },
  { kind: 'singles 6x6', game: 'singles', instance: example('singles-6x6.txt').trim() },
  { kind: 'cube 2x2, 3 moves', game: 'cube', instance: { size: 2, scramble: "R U F'" } },
];

/** Resident memory of a process now, in MiB (VmRSS). */
function rssMiB(pid: number): number {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? Number(match[1]) / 1024 : Number.NaN;
}

const farm = await startBenchFarm(SLOTS, 1);
const workerPid = farm.pids.workers[0]!;
const socket = io(`${farm.url}/progress`, { transports: ['websocket'] });
await new Promise<void>((resolve, reject) => {
  socket.once('connect', () => resolve());
  socket.once('connect_error', reject);
});
/** Final events per job: exactly one each is the expectation. */
const finalEvents = new Map<string, number>();
const waiters: Array<() => void> = [];
socket.on('job', (e: JobEventPayload) => {
  if (!FINAL.has(e.status)) return;
  finalEvents.set(e.jobId, (finalEvents.get(e.jobId) ?? 0) + 1);
  waiters.forEach((w) => w());
});
const allEnded = (ids: string[]): Promise<void> =>
  new Promise((resolve) => {
    const check = (): void => {
      if (ids.every((id) => finalEvents.has(id))) resolve();
    };
    waiters.push(check);
    check();
  });

const jobKind = new Map<string, string>();
const job = (i: number) => KINDS[i % KINDS.length]!;

async function burst(offset: number): Promise<string[]> {
  const ids: string[] = [];
  const batches = [0, 1].map(async (b) => {
    const jobs = Array.from({ length: 50 }, (_, k) => job(offset + b * 50 + k));
    const answer = await post<{ batchId: string; jobIds: string[] }>(farm.url, '/v1/batches', {
      jobs: jobs.map(({ game, instance }) => ({ game, instance })),
    });
    await socket.emitWithAck('subscribe', { batchId: answer.batchId });
    answer.jobIds.forEach((id, k) => jobKind.set(id, jobs[k]!.kind));
    ids.push(...answer.jobIds);
  });
  const singles = Array.from({ length: 5 }, async (_, lane) => {
    for (let k = lane; k < BURST - 100; k += 5) {
      const spec = job(offset + 100 + k);
      const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', {
        game: spec.game,
        instance: spec.instance,
      });
      await socket.emitWithAck('subscribe', { jobId: id });
      jobKind.set(id, spec.kind);
      ids.push(id);
    }
  });
  await Promise.all([...batches, ...singles]);
  return ids;
}

async function round(jobs: number): Promise<{ ids: string[]; seconds: number }> {
  const start = performance.now();
  const bursts: Array<Promise<string[]>> = [];
  for (let offset = 0; offset < jobs; offset += BURST) {
    bursts.push(burst(offset));
    await new Promise((r) => setTimeout(r, 250));
  }
  const ids = (await Promise.all(bursts)).flat();
  await allEnded(ids);
  return { ids, seconds: (performance.now() - start) / 1000 };
}

/** Memory after the farm has gone idle for a few seconds (timers, GC). */
async function settledMemory(): Promise<{ apiMiB: number; workerMiB: number }> {
  await new Promise((r) => setTimeout(r, 5000));
  return { apiMiB: rssMiB(farm.pids.api), workerMiB: rssMiB(workerPid) };
}

try {
  // Warm-up: every kind once, so that the baseline holds the loaded code and the solver caches.
  await round(KINDS.length * 10);
  const baseline = await settledMemory();
  const rows: Array<Record<string, string | number>> = [
    {
      round: 'baseline',
      jobs: 0,
      seconds: 0,
      'jobs/s': 0,
      'api MiB': baseline.apiMiB,
      'worker MiB': baseline.workerMiB,
    },
  ];
  const all: string[] = [];
  const load: number[][] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const { ids, seconds } = await round(PER_ROUND);
    load.push(loadavg());
    all.push(...ids);
    const memory = await settledMemory();
    rows.push({
      round: String(r),
      jobs: ids.length,
      seconds,
      'jobs/s': ids.length / seconds,
      'api MiB': memory.apiMiB,
      'worker MiB': memory.workerMiB,
    });
  }
  printTable(rows);

  // Nothing lost, nothing twice, every answer the same within its kind.
  const resources = await Promise.all(all.map((id) => get<JobResource>(farm.url, `/v1/jobs/${id}`)));
  const byKind = new Map<string, Map<string, number>>();
  for (const resource of resources) {
    const kind = jobKind.get(resource.id)!;
    const answer = `${resource.status}${resource.horizon === undefined ? '' : ` at ${resource.horizon}`}`;
    const answers = byKind.get(kind) ?? new Map<string, number>();
    answers.set(answer, (answers.get(answer) ?? 0) + 1);
    byKind.set(kind, answers);
  }
  const kinds = [...byKind].map(([kind, answers]) => ({ kind, answers: Object.fromEntries(answers) }));
  console.table(kinds.map(({ kind, answers }) => ({ kind, answers: JSON.stringify(answers) })));
  const listed: string[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = await get<{ jobs: JobResource[] }>(farm.url, `/v1/jobs?limit=500&offset=${offset}`);
    listed.push(...page.jobs.map((j) => j.id));
    if (page.jobs.length < 500) break;
  }
  const listedSet = new Set(listed);
  const checks = {
    submitted: all.length,
    listedOnceEach: listedSet.size === listed.length && all.every((id) => listedSet.has(id)),
    distinctIds: new Set(all).size,
    completed: resources.filter(
      (r) => !['queued', 'running', 'failed', 'unknown', 'cancelled'].includes(r.status),
    ).length,
    oneFinalEventEach: all.every((id) => finalEvents.get(id) === 1),
    oneAnswerPerKind: kinds.every(({ answers }) => Object.keys(answers).length === 1),
  };
  console.log(checks);
  const loadAverage = loadavg();
  console.log(`load average at the end: ${loadAverage.map((l) => l.toFixed(2)).join(' ')}`);
  const file = await writeResult('farm-load', {
    at: new Date().toISOString(),
    slots: SLOTS,
    workerProcesses: 1,
    perRound: PER_ROUND,
    rounds: ROUNDS,
    rows,
    kinds,
    checks,
    loadAverageAfterRounds: load,
    loadAverage,
  });
  console.log(`wrote ${file}`);
  if (
    checks.completed !== all.length ||
    checks.distinctIds !== all.length ||
    !checks.oneFinalEventEach ||
    !checks.listedOnceEach
  )
    process.exitCode = 1;
} finally {
  socket.close();
  await farm.stop();
}
