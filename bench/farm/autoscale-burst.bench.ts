import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

import { xoroshiro128plus } from 'pure-rand';
import { parse as parseYaml } from 'yaml';

import { generateScramble } from '@satfarm/games';
import type { BatchResource, JobResource } from '@satfarm/queue';

import { runAutoscaler } from '../../deploy/autoscale/autoscaler.js';
import { prometheusScalingOf, type ScaledObjectManifest } from '../../deploy/autoscale/scaled-object.js';
import { timelineSvg } from '../../deploy/autoscale/timeline-plot.js';
import { abortOnSignals, benchArgs, integerOption, machineFields } from '../hexahop/bench-options.js';
import { get, post, printTable, writeResult } from './farm-bench.fixture.js';

/**
 * Autoscaling on the real metric: a containerised fleet (`npm run fleet`, one worker to start),
 * its Prometheus scraping the api, and the KEDA ScaledObject of k8s/components/keda applied to
 * the worker containers: its exact query read from that Prometheus every polling interval, its
 * replica rule (deploy/autoscale/replica-rule.ts) deciding, `fleet scale` acting.
 *
 *   node dist/bench/farm/autoscale-burst.bench.js [--jobs 200] [--max-replicas 4]
 *
 * A burst of N 2x2 cube scrambles (9 to 11 moves) arrives as one batch. The run ends once the
 * batch is done and the replicas are back at the minimum. It checks that every job ended with
 * its proven optimum, verified, with no horizon left queued or running, and counts the
 * horizons cancelled (dominated) and run again (handed back by a drained worker). It prints the
 * timeline and writes it to bench/results/autoscale-burst.json, .svg (the plot) and .md (a
 * table). Workers have as many slots as the trigger's threshold (one replica per threshold
 * horizons, as docs/deploy.md sizes them); the maximum replicas is lowered to --max-replicas
 * because the machine has few cores.
 */

const { args, fail } = benchArgs('autoscale-burst', {
  jobs: { type: 'string', default: '200' },
  'max-replicas': { type: 'string', default: '4' },
  'time-limit': { type: 'string', default: '2400' },
});
const JOBS = integerOption(args.jobs, 1, 'jobs', fail);
const MAX_REPLICAS = integerOption(args['max-replicas'], 1, 'max-replicas', fail);
const TIME_LIMIT_SEC = integerOption(args['time-limit'], 60, 'time-limit', fail);

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
const run = promisify(execFile);
const fleetName = `satfarm-autoscale-${process.pid}`;

async function fleet(...argv: string[]): Promise<string> {
  const { stdout } = await run('bash', [resolve(root, 'scripts/fleet.sh'), ...argv, '--name', fleetName], {
    cwd: root,
    env: process.env,
    maxBuffer: 16 * 2 ** 20,
  });
  return stdout;
}

interface FleetStatusJson {
  api?: string;
  prometheus?: string;
  containers: { role: string; state: string }[];
}

async function fleetStatus(): Promise<FleetStatusJson> {
  return JSON.parse(await fleet('status', '--json')) as FleetStatusJson;
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolvePort(port));
    });
  });
}

const manifest = parseYaml(
  readFileSync(resolve(root, 'k8s/components/keda/scaled-object.yaml'), 'utf8'),
) as ScaledObjectManifest;
const scaling = prometheusScalingOf(manifest);
const keda = { ...scaling.spec };
scaling.spec.maxReplicas = Math.min(scaling.spec.maxReplicas, MAX_REPLICAS);
const slots = scaling.spec.target;

const signal = abortOnSignals();
const started = Date.now();
let batchId = '';
try {
  console.log(
    `image: ${(await run('bash', [resolve(root, 'scripts/image.sh')], { cwd: root })).stdout.trim().split('\n').at(-1)}`,
  );
  const [apiPort, prometheusPort] = [await freePort(), await freePort()];
  process.env.SATFARM_WORKER_SLOTS = String(slots);
  process.env.SATFARM_PROMETHEUS_PORT = String(prometheusPort);
  await fleet('up', '--workers', String(scaling.spec.minReplicas || 1), '--port', String(apiPort));
  const status = await fleetStatus();
  if (!status.api || !status.prometheus) throw new Error('the fleet publishes no api or no Prometheus');
  const api = status.api;

  const rng = xoroshiro128plus(20261129);
  const jobs = Array.from({ length: JOBS }, (_, i) => ({
    game: 'cube',
    instance: { size: 2, scramble: generateScramble(2, 9 + (i % 3), rng).join(' ') },
  }));
  const created = await post<{ batchId: string }>(api, '/v1/batches', { jobs, label: 'autoscale burst' });
  batchId = created.batchId;
  let batch = await get<BatchResource>(api, `/v1/batches/${batchId}`);

  const workers = async (): Promise<number> =>
    (await fleetStatus()).containers.filter((c) => c.role === 'worker' && c.state === 'running').length;
  const rows = await runAutoscaler({
    scaling,
    prometheusUrl: status.prometheus,
    target: { actual: workers, scaleTo: async (n) => void (await fleet('scale', String(n))) },
    signal,
    onTick: (row) =>
      console.log(
        `${row.atSec.toFixed(0).padStart(5)} s  depth ${String(row.metric ?? '-').padStart(4)}  desired ${row.desired}  actual ${row.actual}  ${row.reason}`,
      ),
    done: async (rs) => {
      batch = await get<BatchResource>(api, `/v1/batches/${batchId}`);
      const last = rs.at(-1)!;
      if ((Date.now() - started) / 1000 > TIME_LIMIT_SEC)
        throw new Error(`not settled in ${TIME_LIMIT_SEC} s`);
      return (
        batch.done && last.actual === scaling.spec.minReplicas && last.desired === scaling.spec.minReplicas
      );
    },
  });
  if (signal.aborted) throw new Error('interrupted');

  const results = (await (await fetch(`${api}/v1/batches/${batchId}/results?format=jsonl`)).text())
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as JobResource);
  const ids = new Set(results.map((r) => r.id));
  const notOptimal = results.filter((r) => r.status !== 'optimal' || r.verified !== true);
  // A horizon lost would leave its job unfinished or its line queued or running.
  const lines = results.flatMap((r) => r.horizons);
  const unsettled = lines.filter((h) => h.result === 'queued' || h.result === 'running').length;
  const handedBack = lines.filter((h) => (h.runs ?? 1) > 1).length;
  const cancelled = lines.filter((h) => h.result === 'cancelled').length;

  const peak = Math.max(...rows.map((r) => r.actual));
  const busiest = rows.findIndex((r) => r.metric === Math.max(...rows.map((x) => x.metric ?? 0)));
  const doneAt = rows.slice(busiest).find((r) => r.metric === 0)?.atSec ?? null;
  const summary = {
    jobs: JOBS,
    results: results.length,
    distinctJobs: ids.size,
    optimalVerified: results.length - notOptimal.length,
    horizons: lines.length,
    cancelled,
    handedBack,
    unsettled,
    peakReplicas: peak,
    queueEmptyAtSec: doneAt,
    backToMinAtSec: rows.at(-1)!.atSec,
    ticks: rows.length,
  };
  printTable(
    rows.map((r) => ({
      s: r.atSec,
      depth: r.metric ?? '-',
      desired: r.desired,
      actual: r.actual,
      reason: r.reason,
    })),
  );
  printTable([{ ...summary, queueEmptyAtSec: summary.queueEmptyAtSec ?? '-' }]);
  const file = await writeResult('autoscale-burst', {
    machine: machineFields(),
    query: scaling.query,
    scaledObject: keda,
    applied: scaling.spec,
    summary,
    timeline: rows,
  });
  const svg = file.replace(/\.json$/, '.svg');
  await writeFile(
    svg,
    timelineSvg(
      rows,
      `KEDA rule on the fleet: a burst of ${JOBS} jobs, ${slots} slots a worker, ${scaling.spec.minReplicas}–${scaling.spec.maxReplicas} workers`,
    ),
  );
  const table = [
    '| s | queue depth | desired | actual | reason |',
    '| --: | --: | --: | --: | --- |',
    ...rows.map((r) => `| ${r.atSec} | ${r.metric ?? '-'} | ${r.desired} | ${r.actual} | ${r.reason} |`),
  ];
  const markdown = file.replace(/\.json$/, '.md');
  await writeFile(markdown, `${table.join('\n')}\n`);
  console.log(`wrote ${file}, ${svg} and ${markdown}`);
  const problems = [
    results.length !== JOBS || ids.size !== JOBS ? `${ids.size} distinct results of ${JOBS} jobs` : '',
    notOptimal.length > 0
      ? `${notOptimal.length} jobs not optimal and verified: ${notOptimal[0]!.id} ${notOptimal[0]!.status}`
      : '',
    unsettled > 0 ? `${unsettled} horizons still queued or running` : '',
    peak <= scaling.spec.minReplicas ? 'the replicas never rose' : '',
  ].filter(Boolean);
  if (problems.length > 0) throw new Error(problems.join('; '));
} catch (error) {
  console.error(`autoscale-burst: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await fleet('down', '--volumes').catch((e: Error) => console.error(`fleet down: ${e.message}`));
}
