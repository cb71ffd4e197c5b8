import { loadavg } from 'node:os';

import { get, JobFollower, post, printTable, startBenchFarm, writeResult } from './farm-bench.fixture.js';
import { metricValue } from './metric-value.js';

/**
 * Cancellation latency: from the result that makes a running horizon useless to the death of
 * its solver. Each job is a staircase whose horizon t=2 is a pigeonhole formula kissat needs
 * minutes for and t=3 one it refutes in a fraction of a second: the UNSAT at 3 dominates 2, which
 * runs on another slot and must be killed. The workers measure each kill (answer time on the
 * deciding worker to the reaped solver) into `satfarm_cancel_latency_seconds`; the quantiles come
 * from that histogram's buckets, as a dashboard would compute them. Target: p95 <= 50 ms.
 *
 *   node dist/bench/farm/farm-cancel-latency.bench.js [jobs]
 *
 * Prints a table and writes bench/results/farm-cancel-latency.json.
 */

const JOBS = Number(process.argv[2] ?? 30);
const METRIC = 'satfarm_cancel_latency_seconds';

/** Cumulative bucket counts of the histogram in a Prometheus exposition. */
function buckets(exposition: string): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  for (const line of exposition.split('\n')) {
    const match = new RegExp(`^${METRIC}_bucket\\{le="([^"]+)"\\} (\\S+)$`).exec(line);
    if (match)
      found.push([match[1] === '+Inf' ? Number.POSITIVE_INFINITY : Number(match[1]), Number(match[2])]);
  }
  return found;
}

/** The q-quantile of observations between two scrapes, interpolated inside its bucket. */
function quantile(before: Array<[number, number]>, after: Array<[number, number]>, q: number): number {
  const counts = after.map(([le, n], i) => [le, n - (before[i]?.[1] ?? 0)] as [number, number]);
  const total = counts.at(-1)?.[1] ?? 0;
  const rank = q * total;
  let lowerEdge = 0;
  let below = 0;
  for (const [le, cumulative] of counts) {
    if (cumulative >= rank) {
      if (!Number.isFinite(le)) return lowerEdge;
      return lowerEdge + ((le - lowerEdge) * (rank - below)) / Math.max(1, cumulative - below);
    }
    lowerEdge = le;
    below = cumulative;
  }
  return lowerEdge;
}

const farm = await startBenchFarm(2);
const follower = await JobFollower.connect(farm.url);
try {
  const before = await get<string>(farm.url, '/metrics');
  for (let i = 0; i < JOBS; i++) {
    const { id } = await post<{ id: string }>(farm.url, '/v1/jobs', {
      game: 'staircase',
      instance: { optimum: 4, lower: 2, holes: { 2: 12, 3: 8 } },
      options: { parallelism: 2, policy: 'consecutive', maxHorizon: 4 },
    });
    await follower.subscribe({ jobId: id });
    await follower.end(id);
  }
  // The kills are reported after the jobs end: wait until every one is counted.
  let after = await get<string>(farm.url, '/metrics');
  const wanted = metricValue(before, `${METRIC}_count`) + JOBS;
  for (let i = 0; i < 100 && metricValue(after, `${METRIC}_count`) < wanted; i++) {
    await new Promise((r) => setTimeout(r, 100));
    after = await get<string>(farm.url, '/metrics');
  }
  const count = metricValue(after, `${METRIC}_count`) - metricValue(before, `${METRIC}_count`);
  const meanMs =
    ((metricValue(after, `${METRIC}_sum`) - metricValue(before, `${METRIC}_sum`)) / count) * 1000;
  const [b, a] = [buckets(before), buckets(after)];
  const result = {
    jobs: JOBS,
    kills: count,
    meanMs,
    p50Ms: quantile(b, a, 0.5) * 1000,
    p95Ms: quantile(b, a, 0.95) * 1000,
    p99Ms: quantile(b, a, 0.99) * 1000,
    loadAverage: loadavg()[0],
    targetP95Ms: 50,
  };
  printTable([
    { measure: 'kills measured', value: count, target: '' },
    { measure: 'mean (ms)', value: meanMs, target: '' },
    { measure: 'p50 (ms)', value: result.p50Ms, target: '' },
    { measure: 'p95 (ms)', value: result.p95Ms, target: '<= 50' },
    { measure: 'p99 (ms)', value: result.p99Ms, target: '' },
  ]);
  console.log(`load average ${loadavg()[0]?.toFixed(2)}`);
  console.log(`wrote ${await writeResult('farm-cancel-latency', result)}`);
} finally {
  follower.close();
  await farm.stop();
}
