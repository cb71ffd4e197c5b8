import { loadavg } from 'node:os';

import type { JobResource } from '@satfarm/queue';

import { benchArgs, integerOption, resultsPath, writeResults } from '../hexahop/bench-options.js';
import { get, JobFollower, post, printTable, startBenchFarm } from './farm-bench.fixture.js';
import { metricValue } from './metric-value.js';

/**
 * The farm's quick plan, measured: the same Hex-a-Hop levels as farm jobs with `quickPlan` on and
 * off, back to back on one farm (the order swapped from level to level, so drift on a shared
 * machine weighs on both), time from `POST /v1/jobs` to the job's final websocket event. On the
 * farm the plan comes from the coordinator's thread after the first horizons are queued, so it
 * can come too late to matter; the `plan` column says where it landed (`t` of the `quick plan`
 * line, `late` when the job ended first or had a plan as short, `none` when the beam found none,
 * `failed`).
 * Default levels: ten of the 21 the in-process comparison measured (bench/README), on both sides
 * of it.
 *
 *   node dist/bench/farm/farm-quick-plan.bench.js [--only A,B] [--slots N] [--timeout S] [--out NAME]
 *
 * Prints a table and writes bench/results/farm-quick-plan.json (`--out`: a name there, or a path).
 */

const DEFAULT_LEVELS = [
  'Orbital',
  'Deadly Snowflake',
  'A Mountain',
  'Sprocket',
  'Green Honey',
  'Deslippify',
  'Wave Cannon',
  'Demolition',
  'A Little Light Lifting',
  'Commute',
];

const { args, fail } = benchArgs('farm quick-plan bench', {
  only: { type: 'string' },
  slots: { type: 'string', default: '1' },
  timeout: { type: 'string', default: '120' },
  out: { type: 'string', default: 'farm-quick-plan' },
});
const slots = integerOption(args.slots, 1, 'slots', fail);
const timeoutSec = integerOption(args.timeout, 1, 'timeout', fail);
const levels = args.only?.split(',').map((l) => l.trim()) ?? DEFAULT_LEVELS;
if (args.only !== undefined && (levels.length === 0 || levels.includes(''))) {
  fail('only', 'expected level names separated by commas');
}

interface Run {
  seconds: number;
  job: JobResource;
}

const farm = await startBenchFarm(slots);
const follower = await JobFollower.connect(farm.url);

async function run(level: string, quickPlan: boolean): Promise<Run> {
  const submitted = performance.now();
  const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', {
    game: 'hexahop',
    instance: { level },
    options: { parallelism: slots, timeoutSec, quickPlan },
  });
  await follower.subscribe({ jobId: id });
  const end = await follower.end(id);
  return { seconds: (end.at - submitted) / 1000, job: await get<JobResource>(farm.url, `/v1/jobs/${id}`) };
}

/** Where the quick plan landed in `job`: the `t` of its line, or why it has none. */
function planOf(job: JobResource, outcome: string): string {
  const line = job.horizons.find((h) => h.by === 'quick plan');
  if (line !== undefined) return String(line.t);
  return outcome === 'found' ? 'late' : outcome;
}

const OUTCOMES = ['found', 'none', 'failed'] as const;

/** `satfarm_quick_plans_total` by outcome. */
async function searches(): Promise<Record<string, number>> {
  const exposition = await get<string>(farm.url, '/metrics');
  return Object.fromEntries(
    OUTCOMES.map((outcome) => [outcome, metricValue(exposition, 'satfarm_quick_plans_total', { outcome })]),
  );
}

/** The outcome of the search that ended after `before` was read (it may end after its job). */
async function searchEnded(before: Record<string, number>): Promise<string> {
  for (let i = 0; i < 300; i++) {
    const now = await searches();
    const ended = OUTCOMES.find((outcome) => now[outcome]! > before[outcome]!);
    if (ended !== undefined) return ended;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the quick-plan search did not end within 30 s of its job');
}

const rows: Array<Record<string, string | number>> = [];
try {
  for (const [i, level] of levels.entries()) {
    const order = i % 2 === 0 ? [false, true] : [true, false];
    const runs = new Map<boolean, Run>();
    let outcome = '';
    for (const quickPlan of order) {
      const before = await searches();
      runs.set(quickPlan, await run(level, quickPlan));
      if (quickPlan) outcome = await searchEnded(before);
    }
    const off = runs.get(false)!;
    const on = runs.get(true)!;
    const answer = (r: Run): string =>
      `${r.job.status}${r.job.horizon === undefined ? '' : ` ${r.job.horizon}`}`;
    // Both are proofs of the same level: where both end, they must agree.
    if (off.job.status === 'optimal' && on.job.status === 'optimal' && off.job.horizon !== on.job.horizon) {
      throw new Error(`${level}: ${off.job.horizon} without the quick plan, ${on.job.horizon} with it`);
    }
    rows.push({
      level,
      off: answer(off),
      on: answer(on),
      plan: planOf(on.job, outcome),
      offSec: off.seconds,
      onSec: on.seconds,
      ratio: on.seconds / off.seconds,
    });
  }
  printTable(rows);
  const total = (key: string): number => rows.reduce((sum, r) => sum + (r[key] as number), 0);
  const ratio = total('onSec') / total('offSec');
  console.log(
    `in all: ${total('onSec').toFixed(1)} s with the quick plan, ${total('offSec').toFixed(1)} s without (${ratio.toFixed(3)}); load average ${loadavg()[0]?.toFixed(2)}`,
  );
  const outcomes = await searches();
  writeResults(resultsPath(args.out), {
    date: new Date().toISOString(),
    slots,
    timeoutSec,
    loadAverage: loadavg()[0],
    outcomes,
    ratio,
    rows,
  });
} finally {
  follower.close();
  await farm.stop();
}
