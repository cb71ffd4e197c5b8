import { availableParallelism, loadavg } from 'node:os';

import { pigeonhole } from '@satfarm/cnf';
import { type JobResource, MAX_BATCH_JOBS } from '@satfarm/queue';

import {
  type BenchFarm,
  get,
  JobFollower,
  percentile,
  post,
  printTable,
  startBenchFarm,
  writeResult,
} from './farm-bench.fixture.js';

/**
 * Fair share between tenants (docs/farm.md, "Fair share"): a large batch of small CNF jobs runs on
 * a farm of `serve`'s shape (the slots in the API's process), and one planning job is submitted
 * while it runs. Measured, with the fair-share gate on and off (SATFARM_FAIR_SHARE):
 *
 * - the single job's time to start (POST to its first horizon running) and to finish (POST to its
 *   final event), on the idle farm (median of a few runs) and during the batch, and their ratio;
 * - the batch's throughput, from its first POST to its last job's end.
 *
 * The batch is created with its first 1000 jobs (MAX_BATCH_JOBS) and grown by the rest
 * (`POST /v1/batches/:id/jobs`): one batch, one tenant.
 *
 * Run from the repository root after `npm run build` (a private redis-server is started unless
 * REDIS_URL is set):
 *
 *   node dist/bench/farm/fair-share.bench.js [batch jobs] [slots]
 *
 * Prints a table and writes bench/results/fair-share.json.
 */

const BATCH_JOBS = Number(process.argv[2] ?? 2000);
const SLOTS = Number(process.argv[3] ?? 2);
const IDLE_RUNS = 3;
/** Batch jobs that end before the single job is submitted, so the batch is well under way. */
const HEAD_START = Math.min(200, Math.floor(BATCH_JOBS / 10));
/** A batch job: PHP(7, 6), UNSAT, about 10 ms of kissat. */
const SMALL = { game: 'cnf', instance: pigeonhole(7, 6).toDimacs() };
/**
 * The single job: a sweep over the staircase game (bench/farm/staircase.game.ts) of five horizons,
 * four UNSAT PHP(8, 7) (about 0.07 s each) and the SAT one at 4.
 */
const SINGLE = {
  game: 'staircase',
  instance: { optimum: 4, lower: 0, holes: { 0: 7, 1: 7, 2: 7, 3: 7 } },
};

interface SingleRun {
  startMs: number;
  finishMs: number;
  /** Whether the start was seen only after it happened (then `startMs` is an upper bound). */
  startLate: boolean;
  status: string;
}

async function runSingle(farm: BenchFarm, follower: JobFollower): Promise<SingleRun> {
  const posted = performance.now();
  const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', SINGLE);
  await follower.subscribe({ jobId: id });
  // A horizon that started before the subscription went in has no event left to see.
  const job = await get<JobResource>(farm.url, `/v1/jobs/${id}`);
  const startedBefore = job.horizons.some((h) => h.result !== 'queued');
  const [start, end] = await Promise.all([
    startedBefore
      ? Promise.race([follower.started(id), Promise.resolve(performance.now())])
      : follower.started(id),
    follower.end(id),
  ]);
  return {
    startMs: start - posted,
    finishMs: end.at - posted,
    startLate: startedBefore,
    status: end.event.status,
  };
}

interface ModeResult {
  fairShare: 'on' | 'off';
  idle: { startMs: number; finishMs: number; runs: SingleRun[] };
  duringBatch: SingleRun & { batchJobsEndedMeanwhile: number };
  startRatio: number;
  finishRatio: number;
  batch: { jobs: number; seconds: number; jobsPerSec: number };
}

async function runMode(fairShare: 'on' | 'off'): Promise<ModeResult> {
  process.env.SATFARM_FAIR_SHARE = fairShare;
  const farm = await startBenchFarm(SLOTS);
  const follower = await JobFollower.connect(farm.url);
  try {
    await runSingle(farm, follower); // warm-up: caches, JIT, the first kissat
    const runs: SingleRun[] = [];
    for (let i = 0; i < IDLE_RUNS; i++) runs.push(await runSingle(farm, follower));
    const idle = {
      startMs: percentile(
        runs.map((r) => r.startMs),
        50,
      ),
      finishMs: percentile(
        runs.map((r) => r.finishMs),
        50,
      ),
      runs,
    };

    // One batch, one tenant: created with its first part, then grown a part at a time.
    const batchStart = performance.now();
    const part = (size: number): unknown[] => Array.from({ length: size }, () => SMALL);
    const created = await post<{ batchId: string; jobIds: string[] }>(farm.url, '/v1/batches', {
      jobs: part(Math.min(MAX_BATCH_JOBS, BATCH_JOBS)),
    });
    await follower.subscribe({ batchId: created.batchId });
    const ids = [...created.jobIds];
    while (ids.length < BATCH_JOBS) {
      const grown = await post<{ jobIds: string[] }>(farm.url, `/v1/batches/${created.batchId}/jobs`, {
        offset: ids.length,
        jobs: part(Math.min(MAX_BATCH_JOBS, BATCH_JOBS - ids.length)),
      });
      ids.push(...grown.jobIds);
    }
    let ended = 0;
    let headStart!: () => void;
    const headStarted = new Promise<void>((r) => (headStart = r));
    const ends = ids.map((id) =>
      follower.end(id).then((end) => {
        if (++ended >= HEAD_START) headStart();
        return end.at;
      }),
    );
    await headStarted;
    const endedBefore = ended;
    const during = await runSingle(farm, follower);
    const endedMeanwhile = ended - endedBefore;
    const batchEnd = Math.max(...(await Promise.all(ends)));
    const seconds = (batchEnd - batchStart) / 1000;
    return {
      fairShare,
      idle,
      duringBatch: { ...during, batchJobsEndedMeanwhile: endedMeanwhile },
      startRatio: during.startMs / idle.startMs,
      finishRatio: during.finishMs / idle.finishMs,
      batch: { jobs: ids.length, seconds, jobsPerSec: ids.length / seconds },
    };
  } finally {
    follower.close();
    await farm.stop();
  }
}

const modes: ModeResult[] = [];
for (const mode of ['on', 'off'] as const) modes.push(await runMode(mode));

printTable(
  modes.map((m) => ({
    'fair share': m.fairShare,
    'idle start ms': m.idle.startMs,
    'idle finish ms': m.idle.finishMs,
    'start ms (batch)': m.duringBatch.startMs,
    'finish ms (batch)': m.duringBatch.finishMs,
    'finish ratio': m.finishRatio,
    'batch jobs ended meanwhile': m.duringBatch.batchJobsEndedMeanwhile,
    'batch jobs/s': m.batch.jobsPerSec,
  })),
);
const file = await writeResult('fair-share', {
  at: new Date().toISOString(),
  machine: { cores: availableParallelism(), loadavg: loadavg() },
  batchJobs: BATCH_JOBS,
  slots: SLOTS,
  lookahead: Number(process.env.SATFARM_FAIR_LOOKAHEAD ?? 4),
  modes,
});
console.log(`wrote ${file}`);
