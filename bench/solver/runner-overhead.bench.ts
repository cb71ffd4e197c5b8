import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { dirname, join, resolve } from 'node:path';

import { type CnfFormula, pigeonhole, randomKSat } from '@satfarm/cnf';
import { KissatRunner, type LaunchMode } from '@satfarm/solver';

import { childrenOf, commandLine, processTimes, TICKS_PER_SECOND } from '../farm/proc-files.js';
import { median } from '../statistics.js';

/**
 * What KissatRunner costs on top of kissat itself: for each instance, N solves through the
 * runner (DIMACS streamed to stdin, output parsed, model checked) against N runs of `kissat FILE`
 * with spawnSync on the same DIMACS text, the runner starting kissat from its spawn host (the
 * default) and from this process (`launch: 'direct'`). Medians, so one slow run on a shared
 * machine does not decide.
 *
 * Then what starting a process costs the caller's event loop: many trivial solves, 4 in flight,
 * from this process as it is and again holding ~300 MB more (a worker's caches, an API's modules),
 * from the native spawn host, the Node one and this process: solves per second, the CPU of every
 * process involved per solve, and the event loop's delay (p99, max) meanwhile.
 *
 * Run from the repository root after `npm run build`:
 *
 *   node dist/bench/solver/runner-overhead.bench.js [runs]
 *
 * Prints a table and writes bench/results/solver-overhead.json.
 */

interface Instance {
  name: string;
  formula: CnfFormula;
}

interface Row {
  instance: string;
  vars: number;
  clauses: number;
  result: string;
  directMs: number;
  runnerMs: number;
  runnerDirectLaunchMs: number;
  ratio: number;
}

interface LaunchRow {
  heapMB: number;
  launch: LaunchMode;
  solvesPerSec: number;
  /** CPU of this process, its spawn host and the solvers, per solve. */
  cpuMsPerSolve: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

const RUNS = Number(process.argv[2] ?? 20);
const RESULT_FILE = resolve('bench/results/solver-overhead.json');
const EXIT_STATUS: Record<number, string> = { 10: 'sat', 20: 'unsat' };

function instances(): Instance[] {
  const random = [100, 150, 200, 250].map((n) => ({
    name: `random-3sat-n${n}`,
    formula: randomKSat(n, Math.round(4.26 * n), 3, n),
  }));
  return [...random, { name: 'php-7-6', formula: pigeonhole(7, 6) }];
}

function runDirect(file: string): { ms: number; status: string } {
  const start = performance.now();
  const run = spawnSync('kissat', [file], { stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 1 << 26 });
  const ms = performance.now() - start;
  return { ms, status: EXIT_STATUS[run.status ?? -1] ?? `exit ${String(run.status)}` };
}

async function runRunner(runner: KissatRunner, formula: CnfFormula): Promise<{ ms: number; status: string }> {
  const start = performance.now();
  const outcome = await runner.solve({ formula });
  return { ms: performance.now() - start, status: outcome.status };
}

async function measure(
  instance: Instance,
  dir: string,
  runner: KissatRunner,
  directRunner: KissatRunner,
): Promise<Row> {
  const file = join(dir, `${instance.name}.cnf`);
  await writeFile(file, instance.formula.toDimacs());
  // One untimed run of each warms the page cache and the runner's version lookup.
  runDirect(file);
  await runRunner(runner, instance.formula);
  await runRunner(directRunner, instance.formula);
  const direct: number[] = [];
  const viaRunner: number[] = [];
  const viaDirectRunner: number[] = [];
  const statuses = new Set<string>();
  for (let i = 0; i < RUNS; i++) {
    const d = runDirect(file);
    const r = await runRunner(runner, instance.formula);
    const rd = await runRunner(directRunner, instance.formula);
    direct.push(d.ms);
    viaRunner.push(r.ms);
    viaDirectRunner.push(rd.ms);
    statuses.add(d.status).add(r.status).add(rd.status);
  }
  if (statuses.size !== 1)
    throw new Error(`${instance.name}: direct and runner disagree: ${[...statuses].join(', ')}`);
  const directMs = median(direct);
  const runnerMs = median(viaRunner);
  return {
    instance: instance.name,
    vars: instance.formula.numVars,
    clauses: instance.formula.numClauses,
    result: [...statuses][0]!,
    directMs: round(directMs),
    runnerMs: round(runnerMs),
    runnerDirectLaunchMs: round(median(viaDirectRunner)),
    ratio: round(runnerMs / directMs),
  };
}

function round(x: number): number {
  return Math.round(x * 100) / 100;
}

function printTable(rows: Row[]): void {
  const header = [
    'instance',
    'vars',
    'clauses',
    'result',
    'kissat ms',
    'runner ms',
    'ratio',
    'runner, direct launch ms',
  ];
  const cells = rows.map((r) =>
    [r.instance, r.vars, r.clauses, r.result, r.directMs, r.runnerMs, r.ratio, r.runnerDirectLaunchMs].map(
      String,
    ),
  );
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]): string =>
    values.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(line(header));
  for (const c of cells) console.log(line(c));
}

/** CPU ticks so far of this process, its spawn hosts, and every process they reaped. */
function cpuTicks(): number {
  const ticks = (pid: number): number => {
    const t = processTimes(pid);
    return t === undefined ? 0 : t.own + t.reaped;
  };
  const hosts = childrenOf(process.pid).filter((pid) => commandLine(pid).includes('spawn-host'));
  return ticks(process.pid) + hosts.reduce((sum, pid) => sum + ticks(pid), 0);
}

/** `count` trivial solves, 4 in flight, with the event loop's delay sampled every millisecond. */
async function launchCost(
  runner: KissatRunner,
  count: number,
): Promise<Omit<LaunchRow, 'heapMB' | 'launch'>> {
  const formula = pigeonhole(3, 2);
  for (let i = 0; i < 10; i++) await runner.solve({ formula });
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  const ticksBefore = cpuTicks();
  const start = performance.now();
  let started = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (started < count) {
        started++;
        const outcome = await runner.solve({ formula });
        if (outcome.status !== 'unsat') throw new Error(`a trivial solve gave ${outcome.status}`);
      }
    }),
  );
  const seconds = (performance.now() - start) / 1000;
  const ticks = cpuTicks() - ticksBefore;
  delay.disable();
  return {
    solvesPerSec: round(count / seconds),
    cpuMsPerSolve: round((ticks * 1000) / TICKS_PER_SECOND / count),
    loopDelayP99Ms: round(delay.percentile(99) / 1e6),
    loopDelayMaxMs: round(delay.max / 1e6),
  };
}

async function launchRows(): Promise<LaunchRow[]> {
  const rows: LaunchRow[] = [];
  const runners = {
    host: new KissatRunner(),
    'node-host': new KissatRunner({ launch: 'node-host' }),
    direct: new KissatRunner({ launch: 'direct' }),
  };
  const ballast: unknown[] = [];
  for (const heapMB of [0, 300]) {
    // Small live objects, as a real heap has, until RSS has grown by about heapMB.
    const base = process.memoryUsage().rss;
    while (process.memoryUsage().rss - base < heapMB * 1e6) {
      ballast.push(Array.from({ length: 10_000 }, (_, i) => ({ i, s: `cell ${i}` })));
    }
    for (const launch of ['direct', 'node-host', 'host'] as const) {
      rows.push({ heapMB, launch, ...(await launchCost(runners[launch], 300)) });
    }
  }
  ballast.length = 0;
  return rows;
}

function printLaunchTable(rows: LaunchRow[]): void {
  console.log('\nstarting a solver: trivial solves, 4 in flight');
  console.log('extra heap  launch     solves/s  CPU ms/solve  loop delay p99 ms  loop delay max ms');
  for (const r of rows) {
    console.log(
      `${`${r.heapMB} MB`.padStart(10)}  ${r.launch.padEnd(9)}  ${String(r.solvesPerSec).padStart(8)}  ${String(r.cpuMsPerSolve).padStart(12)}  ${String(r.loopDelayP99Ms).padStart(17)}  ${String(r.loopDelayMaxMs).padStart(17)}`,
    );
  }
}

async function main(): Promise<void> {
  if (!Number.isInteger(RUNS) || RUNS < 1)
    throw new Error(`runs must be a positive integer, got ${process.argv[2]}`);
  const runner = new KissatRunner();
  const directRunner = new KissatRunner({ launch: 'direct' });
  const dir = await mkdtemp(join(tmpdir(), 'satfarm-bench-'));
  const rows: Row[] = [];
  try {
    for (const instance of instances()) rows.push(await measure(instance, dir, runner, directRunner));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  printTable(rows);
  const launch = await launchRows();
  printLaunchTable(launch);
  const result = {
    bench: 'solver-overhead',
    date: new Date().toISOString(),
    solver: await runner.version(),
    node: process.version,
    cpu: cpus()[0]?.model ?? 'unknown',
    cores: cpus().length,
    loadAverage: round(loadavg()[0] ?? 0),
    runsPerInstance: RUNS,
    statistic: 'median wall-clock ms per solve',
    rows,
    launch,
  };
  await mkdir(dirname(RESULT_FILE), { recursive: true });
  await writeFile(RESULT_FILE, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwritten to ${RESULT_FILE}`);
}

await main();
