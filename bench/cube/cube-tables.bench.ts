/*
 * The strong 3x3 pattern tables (docs/games.md#cube): what each costs to build and hold, and how
 * much closer the lower bound starts to the optimum than the small databases.
 *
 *   node dist/bench/cube/cube-tables.bench.js [--metric htm|qtm|both] [--dir FOLDER] [--samples N]
 *                                             [--no-reid]
 *
 * Each table is built (forced) in a process of its own, so its peak RSS is its own; into FOLDER
 * (default: a temporary folder, removed at the end). Then the bounds, old and new, of the cube
 * benchmark's 3x3 scrambles of 8, 9 and 10 moves (bench/cube/cube.bench.ts's seeds) against their
 * optimum: in the half-turn metric the one bench/results/cube.json proved, in the quarter-turn
 * metric Reid's optimal solver's (`rubiks_optimal`, Debian's `rubiks`; about 25 s for all six).
 * Last, the mean bounds over N random scrambles (default 200) per length. Prints tables and writes
 * bench/results/cube-tables.json.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  buildCubeTables,
  type CubeInstance,
  cubeLowerBound,
  type Face,
  FaceletGeometry,
  generateScramble,
  loadStrongCubeBound,
  type Metric,
  parseCubeInstance,
  strongCoordinates,
  type TableBuild,
} from '@satfarm/games';

import { median } from '../statistics.js';

const args = process.argv.slice(2);
const flag = (name: string): string | undefined => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const self = fileURLToPath(import.meta.url);

/** A child's work: one table, forced, and the figures of its own process. */
if (args[0] === '--build-one') {
  const [, metric, pattern, dir] = args as [string, Metric, string, string];
  const [build] = buildCubeTables({
    dir,
    metrics: [metric],
    force: true,
    coordinates: (m) => strongCoordinates(m).filter((c) => c.name === pattern),
  });
  const usage = process.resourceUsage();
  const cpuMs = Math.round((usage.userCPUTime + usage.systemCPUTime) / 1000);
  process.stdout.write(`${JSON.stringify({ build, peakRssKiB: usage.maxRSS, cpuMs })}\n`);
  process.exit(0);
}

const metricFlag = flag('--metric') ?? 'both';
if (!['htm', 'qtm', 'both'].includes(metricFlag)) {
  console.error(`--metric must be htm, qtm or both, got '${metricFlag}'`);
  process.exit(2);
}
const METRICS: Metric[] = metricFlag === 'both' ? ['htm', 'qtm'] : [metricFlag as Metric];
const SAMPLES = Number(flag('--samples') ?? 200);
if (!Number.isInteger(SAMPLES) || SAMPLES < 1) {
  console.error(`--samples must be a positive integer, got '${flag('--samples')}'`);
  process.exit(2);
}
const keepDir = flag('--dir');
const dir = keepDir ?? mkdtempSync(join(tmpdir(), 'satfarm-pdb-bench-'));
const RESULTS = resolve(dirname(self), '../../../bench/results');

interface BuildRow extends TableBuild {
  peakRssMiB: number;
  /** The child process's wall and CPU time (node's start and the module loading included). */
  wallMs: number;
  cpuMs: number;
}

function buildOne(metric: Metric, pattern: string): Promise<BuildRow> {
  return new Promise((done, fail) => {
    const started = performance.now();
    const child = spawn(process.execPath, [self, '--build-one', metric, pattern, dir], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.on('error', fail);
    child.on('close', (code) => {
      if (code !== 0) return fail(new Error(`building ${metric} ${pattern} exited ${code}`));
      const { build, peakRssKiB, cpuMs } = JSON.parse(out) as {
        build: TableBuild;
        peakRssKiB: number;
        cpuMs: number;
      };
      done({
        cpuMs,
        ...build,
        peakRssMiB: Math.round(peakRssKiB / 1024),
        wallMs: Math.round(performance.now() - started),
      });
    });
  });
}

/** The RSS of a node process that only starts: what the peaks above stand on. */
function baselineRssMiB(): number {
  const run = spawnSync(process.execPath, ['-e', 'console.log(process.resourceUsage().maxRSS)'], {
    encoding: 'utf8',
  });
  return Math.round(Number(run.stdout) / 1024);
}

interface Case {
  name: string;
  scramble: string;
  moves: number;
}

/** The cube benchmark's 3x3 cases of 8, 9 and 10 moves (its seed and numbering). */
function benchCases(): Case[] {
  const SEED = 2024;
  return [8, 9, 10].flatMap((moves) =>
    [0, 1].map((i) => {
      const scramble = generateScramble(3, moves, SEED + 100 * moves + i).join(' ');
      return { name: `3x3 ${moves}m #${i + 1} (${scramble})`, scramble, moves };
    }),
  );
}

/** Half-turn optima the cube benchmark proved, by case name. */
function provenHtm(): Map<string, number> {
  const file = join(RESULTS, 'cube.json');
  const out = new Map<string, number>();
  if (!existsSync(file)) return out;
  const rows = (
    JSON.parse(readFileSync(file, 'utf8')) as {
      rows: { instance: string; status: string; optimum?: number }[];
    }
  ).rows;
  for (const r of rows) if (r.status === 'optimal' && r.optimum !== undefined) out.set(r.instance, r.optimum);
  return out;
}

/** Reid's cubie order and notation (as cube.reid.int-spec.ts). */
const REID_LOCATIONS = 'UF UR UB UL DF DR DB DL FR FL BR BL UFR URB UBL ULF DRF DFL DLB DBR'.split(' ');
function reidNotation(instance: CubeInstance): string {
  const g = FaceletGeometry.of(3);
  return REID_LOCATIONS.map((loc) => {
    const faces = loc.split('') as Face[];
    return faces.map((f) => instance.facelets[g.faceletOf(faces, f)]).join('');
  }).join(' ');
}

/** Quarter-turn optima from Reid's optimal solver, or undefined where it is not installed. */
function reidOptima(instances: CubeInstance[]): number[] | undefined {
  if (args.includes('--no-reid')) return undefined;
  const run = spawnSync('rubiks_optimal', [], {
    input: instances.map((i) => `${reidNotation(i)}\n`).join(''),
    encoding: 'utf8',
    timeout: 600_000,
    maxBuffer: 1 << 24,
  });
  if (run.error !== undefined || run.status !== 0) return undefined;
  return run.stdout
    .split('enter cube')
    .slice(1, instances.length + 1)
    .map((text) => {
      const lengths = [...text.matchAll(/\((\d+)q\*?,/g)].map((m) => Number(m[1]));
      return text.includes('already solved') ? 0 : Math.min(...lengths);
    });
}

const pad = (rows: string[][]): string => {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => c.padEnd(widths[i]!)).join('  ')).join('\n');
};

const machine = {
  cpus: cpus().length,
  loadavgAtStart: loadavg().map((x) => Number(x.toFixed(2))),
  node: process.version,
};
console.log(
  `cube tables benchmark: ${machine.cpus} cores, load ${machine.loadavgAtStart.join(' ')}, tables in ${dir}`,
);

// 1. Build each table in a process of its own.
const builds: BuildRow[] = [];
for (const metric of METRICS) {
  for (const coord of strongCoordinates(metric)) builds.push(await buildOne(metric, coord.name));
}
const baseline = baselineRssMiB();
console.log(`\nbuilds (a node process that only starts: ${baseline} MiB RSS)`);
console.log(
  pad([
    [
      'metric',
      'table',
      'entries',
      'bytes',
      'move tables',
      'search',
      'write',
      'process',
      'CPU',
      'peak RSS',
      'max',
      'histogram',
    ],
    ...builds.map((b) => [
      b.metric,
      b.pattern,
      String(b.entries),
      `${(b.bytes / 2 ** 20).toFixed(1)} MiB`,
      `${(b.ms!.moveTables / 1000).toFixed(1)} s`,
      `${(b.ms!.search / 1000).toFixed(1)} s`,
      `${(b.ms!.write / 1000).toFixed(2)} s`,
      `${(b.wallMs / 1000).toFixed(1)} s`,
      `${(b.cpuMs / 1000).toFixed(1)} s`,
      `${b.peakRssMiB} MiB`,
      String(b.histogram!.length - 1),
      b.histogram!.join(' '),
    ]),
  ]),
);
const totalWallMs = builds.reduce((s, b) => s + b.wallMs, 0);
const totalCpuMs = builds.reduce((s, b) => s + b.cpuMs, 0);
console.log(`all builds: ${(totalWallMs / 1000).toFixed(1)} s, ${(totalCpuMs / 1000).toFixed(1)} s of CPU`);

// 2. Loading, and the bound of each case.
interface BoundRow {
  metric: Metric;
  instance: string;
  old: number;
  strong: number;
  optimum?: number;
  optimumFrom?: string;
}
const bounds: BoundRow[] = [];
const loads: { metric: Metric; loadMs: number; tableMiB: number; lookupMsMedian: number }[] = [];
const samples: { metric: Metric; moves: number; n: number; meanOld: number; meanStrong: number }[] = [];
const proven = provenHtm();
for (const metric of METRICS) {
  const t0 = performance.now();
  const tables = loadStrongCubeBound(metric, dir);
  const loadMs = performance.now() - t0;
  if (tables === undefined) throw new Error(`the ${metric} tables did not load from ${dir}`);
  const cases = benchCases();
  const instances = cases.map((c) => parseCubeInstance({ size: 3, scramble: c.scramble, metric }));
  const reid = metric === 'qtm' ? reidOptima(instances) : undefined;
  const lookups: number[] = [];
  cases.forEach((c, i) => {
    const instance = instances[i]!;
    const t = performance.now();
    const strong = cubeLowerBound(instance, undefined, tables);
    lookups.push(performance.now() - t);
    const optimum = metric === 'htm' ? proven.get(c.name) : reid?.[i];
    const row: BoundRow = {
      metric,
      instance: c.name,
      old: cubeLowerBound(instance, undefined, 'none'),
      strong,
    };
    if (optimum !== undefined) {
      row.optimum = optimum;
      row.optimumFrom = metric === 'htm' ? 'bench/results/cube.json' : 'rubiks_optimal';
      if (strong > optimum)
        throw new Error(`${metric} ${c.name}: bound ${strong} above the optimum ${optimum}`);
    }
    bounds.push(row);
  });
  loads.push({
    metric,
    loadMs: Math.round(loadMs),
    tableMiB: Number((tables.bytes / 2 ** 20).toFixed(1)),
    lookupMsMedian: Number(median(lookups).toFixed(2)),
  });
  for (const moves of [8, 9, 10, 12, 15, 20]) {
    let old = 0;
    let strong = 0;
    for (let s = 0; s < SAMPLES; s++) {
      const instance = parseCubeInstance({
        size: 3,
        scramble: generateScramble(3, moves, 77_000 + 1000 * moves + s).join(' '),
        metric,
      });
      old += cubeLowerBound(instance, undefined, 'none');
      strong += cubeLowerBound(instance, undefined, tables);
    }
    samples.push({
      metric,
      moves,
      n: SAMPLES,
      meanOld: Number((old / SAMPLES).toFixed(2)),
      meanStrong: Number((strong / SAMPLES).toFixed(2)),
    });
  }
}

console.log('\nloading (first cubeLowerBound of a process) and lookups');
console.log(
  pad([
    ['metric', 'read', 'tables', 'lookup (median)'],
    ...loads.map((l) => [l.metric, `${l.loadMs} ms`, `${l.tableMiB} MiB`, `${l.lookupMsMedian} ms`]),
  ]),
);
console.log("\nthe cube benchmark's scrambles: old bound, new bound, optimum");
console.log(
  pad([
    ['metric', 'instance', 'old', 'new', 'optimum', 'gap old -> new'],
    ...bounds.map((b) => [
      b.metric,
      b.instance,
      String(b.old),
      String(b.strong),
      b.optimum === undefined ? '?' : String(b.optimum),
      b.optimum === undefined ? '' : `${b.optimum - b.old} -> ${b.optimum - b.strong}`,
    ]),
  ]),
);
console.log(`\nmean bounds over ${SAMPLES} random scrambles per length`);
console.log(
  pad([
    ['metric', 'moves', 'old', 'new', 'gain'],
    ...samples.map((s) => [
      s.metric,
      String(s.moves),
      String(s.meanOld),
      String(s.meanStrong),
      (s.meanStrong - s.meanOld).toFixed(2),
    ]),
  ]),
);

if (keepDir === undefined) rmSync(dir, { recursive: true, force: true });
mkdirSync(RESULTS, { recursive: true });
const out = join(RESULTS, 'cube-tables.json');
writeFileSync(
  out,
  `${JSON.stringify(
    {
      date: new Date().toISOString(),
      machine,
      baselineRssMiB: baseline,
      totalBuildWallMs: totalWallMs,
      totalBuildCpuMs: totalCpuMs,
      builds,
      loads,
      bounds,
      samples,
    },
    null,
    1,
  )}\n`,
);
console.log(`\nwrote ${out}`);
