/*
 * Cube benchmark: proven-optimal solutions by horizon sweep (kissat, 2 horizons in flight), the
 * encoding choices side by side. 2x2 states at exact distances 8..11 (half-turn metric) picked
 * with a seed from the breadth-first distance table; 3x3 scrambles of 4..10 moves.
 *
 *   node dist/bench/cube/cube.bench.js [--quick] [--cap SECONDS] [--only 2x2|3x3]
 *                                      [--variants 'default;no perimeter;...'] [--match REGEX]
 *
 * Per sweep: time to the proven optimum, when the last UNSAT (optimum - 1) and the SAT at the
 * optimum came in (ms from the start of the sweep). A sweep is cut at the cap and
 * reported as such (default 180 s). Prints a table per cube and writes bench/results/cube.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { solveEncoded } from '@satfarm/engine';
import {
  cubeGame,
  type CubeInstance,
  cubeLowerBound,
  type CubeSolution,
  cubeVariant,
  encodeCube,
  generateScramble,
  parseCubeInstance,
  PocketCubeDistances,
  verifyCube,
} from '@satfarm/games';
import { KissatRunner, type SolverPreset } from '@satfarm/solver';
import { consecutivePolicy, HorizonSweep, horizonPreset } from '@satfarm/sweep';
import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import { encodeCubeNaively } from './cube-naive.encoding.js';
import { median } from '../statistics.js';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const capIndex = args.indexOf('--cap');
const CAP_MS = (capIndex >= 0 ? Number(args[capIndex + 1]) : quick ? 30 : 180) * 1000;
const onlyIndex = args.indexOf('--only');
const only = onlyIndex >= 0 ? args[onlyIndex + 1] : undefined;
const variantsIndex = args.indexOf('--variants');
const variantFilter =
  variantsIndex >= 0 ? new Set((args[variantsIndex + 1] ?? '').split(';').map((s) => s.trim())) : undefined;
const matchIndex = args.indexOf('--match');
const caseFilter = matchIndex >= 0 ? new RegExp(args[matchIndex + 1] ?? '') : undefined;
const selected = (vs: Variant[]): Variant[] =>
  variantFilter === undefined ? vs : vs.filter((v) => variantFilter.has(v.name));
const PARALLELISM = 2;
const SEED = 2024;
const kissat = new KissatRunner();

/** An encoding choice: named options for `encodeCube`, or the naive baseline; `presets` splits sat/unsat. */
interface Variant {
  name: string;
  options?: Record<string, string | number | boolean>;
  naive?: boolean;
  /** Solver presets by the bounds; default: the game's choice (on for the cube). */
  presets?: boolean;
  parallelism?: number;
}

interface Case {
  name: string;
  instance: CubeInstance;
  /** Known optimum (2x2, from the distance table). */
  distance?: number;
}

interface Row {
  instance: string;
  distance: number | undefined;
  variant: string;
  /** Whether horizons ran with solver presets by the bounds. */
  presets: boolean;
  status: string;
  optimum?: number;
  lowerBound: number;
  msToOptimal?: number;
  msLastUnsat?: number;
  msSat?: number;
  horizons: string;
  vars?: number;
  clauses?: number;
}

async function sweep(c: Case, v: Variant): Promise<Row> {
  const lower = cubeLowerBound(c.instance);
  const started = performance.now();
  const ended = new Map<number, { result: string; at: number }>();
  const presets = !v.naive && (v.presets ?? cubeGame.solverPresets ?? false);
  let size: { vars: number; clauses: number } | undefined;
  const horizonSweep = new HorizonSweep<CubeSolution>({
    lower,
    max: cubeGame.defaultMaxHorizon(c.instance),
    parallelism: v.parallelism ?? PARALLELISM,
    policy: consecutivePolicy,
    timeoutMs: CAP_MS,
  });
  const result = await horizonSweep.run({
    run: async (t, signal, bounds) => {
      const preset: SolverPreset = presets ? horizonPreset(t, bounds.lower) : 'default';
      const encoded = v.naive
        ? encodeCubeNaively(c.instance, t)
        : encodeCube(c.instance, t, { variant: v.options ?? {} });
      size = encoded.formula.stats;
      const r = await solveEncoded(cubeGame, c.instance, t, encoded, kissat, { signal, preset });
      ended.set(t, { result: r.result, at: performance.now() - started });
      if (r.result === 'sat') return { result: 'sat', plan: r.plan, planLength: r.planLength };
      if (r.result === 'unsat') return { result: 'unsat' };
      return { result: 'unknown', reason: r.result };
    },
  });
  const wall = performance.now() - started;
  const optimum = result.status === 'optimal' ? result.horizon : undefined;
  if (
    optimum !== undefined &&
    result.plan !== undefined &&
    !verifyCube(c.instance, result.plan, optimum).ok
  ) {
    throw new Error(`${c.name}/${v.name}: the reported plan does not verify`);
  }
  if (optimum !== undefined && c.distance !== undefined && optimum !== c.distance) {
    throw new Error(`${c.name}/${v.name}: optimum ${optimum} but the distance table says ${c.distance}`);
  }
  const at = (t: number | undefined): number | undefined => (t === undefined ? undefined : ended.get(t)?.at);
  const msSat =
    optimum === undefined
      ? undefined
      : at([...ended.keys()].filter((t) => ended.get(t)!.result === 'sat').sort((a, b) => a - b)[0]);
  return {
    instance: c.name,
    distance: c.distance,
    variant: v.name,
    presets,
    status: result.status === 'unknown' && wall >= CAP_MS - 50 ? 'capped' : result.status,
    optimum,
    lowerBound: lower,
    msToOptimal: optimum === undefined ? undefined : Math.round(wall),
    msLastUnsat: optimum === undefined || optimum === lower ? undefined : round(at(optimum - 1)),
    msSat: round(msSat),
    horizons: result.horizons
      .map(
        (h) =>
          `${h.t}${h.result === 'sat' ? 'S' : h.result === 'unsat' ? 'U' : h.result === 'cancelled' ? 'c' : '?'}`,
      )
      .join(' '),
    vars: size?.vars,
    clauses: size?.clauses,
  };
}

const round = (x: number | undefined): number | undefined => (x === undefined ? undefined : Math.round(x));

function pocketCases(): Case[] {
  const table = PocketCubeDistances.of('htm');
  const rng = xoroshiro128plus(SEED);
  const perDistance: Record<number, number> = quick
    ? { 8: 1, 9: 1, 10: 2, 11: 2 }
    : { 8: 2, 9: 2, 10: 4, 11: 4 };
  const cases: Case[] = [];
  for (const [d, n] of Object.entries(perDistance).map(([d, n]) => [Number(d), n] as const)) {
    const indices = table.indicesAt(d);
    for (let i = 0; i < n; i++) {
      const state = table.stateAt(indices[unsafeUniformIntDistribution(0, indices.length - 1, rng)]!);
      cases.push({
        name: `2x2 d${d} #${i + 1}`,
        instance: parseCubeInstance({ size: 2, facelets: state.toFacelets() }),
        distance: d,
      });
    }
  }
  return cases;
}

function rubikCases(depths: number[], perDepth: number): Case[] {
  const cases: Case[] = [];
  for (const depth of depths) {
    for (let i = 0; i < perDepth; i++) {
      const scramble = generateScramble(3, depth, SEED + 100 * depth + i).join(' ');
      cases.push({
        name: `3x3 ${depth}m #${i + 1} (${scramble})`,
        instance: parseCubeInstance({ size: 3, scramble }),
      });
    }
  }
  return cases;
}

function describe(v: Variant, size: 2 | 3): string {
  if (v.naive) return 'stickers, pairwise exactly-one, 18 moves, no pruning';
  return JSON.stringify(cubeVariant({ size, metric: 'htm' }, { variant: v.options ?? {} }));
}

function printRows(rows: Row[]): void {
  const head = [
    'instance',
    'dist',
    'variant',
    'status',
    'opt',
    'lb',
    'to optimal',
    'last UNSAT',
    'SAT',
    'horizons',
    'clauses',
  ];
  const cells = rows.map((r) => [
    r.instance.length > 44 ? `${r.instance.slice(0, 41)}...` : r.instance,
    String(r.distance ?? ''),
    r.variant,
    r.status,
    String(r.optimum ?? ''),
    String(r.lowerBound),
    r.msToOptimal === undefined ? '-' : `${(r.msToOptimal / 1000).toFixed(1)} s`,
    r.msLastUnsat === undefined ? '-' : `${(r.msLastUnsat / 1000).toFixed(1)} s`,
    r.msSat === undefined ? '-' : `${(r.msSat / 1000).toFixed(1)} s`,
    r.horizons,
    String(r.clauses ?? ''),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]): string => c.map((x, i) => x.padEnd(widths[i]!)).join('  ');
  console.log(line(head));
  for (const c of cells) console.log(line(c));
}

function summarize(
  rows: Row[],
  variant: string,
): { solved: number; of: number; medianMs?: number; worstMs?: number } {
  const mine = rows.filter((r) => r.variant === variant);
  const times = mine.filter((r) => r.msToOptimal !== undefined).map((r) => r.msToOptimal!);
  const allSolved = times.length === mine.length;
  return {
    solved: times.length,
    of: mine.length,
    medianMs: times.length > 0 ? Math.round(median(times)) : undefined,
    worstMs: allSolved && times.length > 0 ? Math.max(...times) : undefined,
  };
}

const POCKET_VARIANTS: Variant[] = [
  { name: 'default' },
  { name: 'default, no presets', presets: false },
  { name: 'default, 1 horizon', parallelism: 1 },
  { name: 'no perimeter', options: { perimeter: 0 } },
  { name: 'perimeter 6', options: { perimeter: 6 } },
  { name: 'pair pruning only', options: { perimeter: 0, window: 0 } },
  { name: 'pattern bounds', options: { perimeter: 0, bounds: 'both' } },
  { name: 'no pruning', options: { perimeter: 0, window: 0, prune: 'none' } },
  { name: 'naive', naive: true },
];

const RUBIK_VARIANTS: Variant[] = [
  { name: 'default' },
  { name: 'default, no presets', presets: false },
  { name: 'no windows', options: { window: 0 } },
  { name: 'pattern bounds', options: { bounds: 'goal' } },
  { name: 'perimeter 2', options: { perimeter: 2 } },
];

/** Which cases a variant runs: the default everywhere, weaker choices on a subset to bound the run time. */
function casesFor(v: Variant, cases: Case[], size: 2 | 3): Case[] {
  if (v.name === 'default') return cases;
  if (size === 2) {
    const firstOfEach = cases.filter((c, i) => cases.findIndex((o) => o.distance === c.distance) === i);
    if (v.naive) return firstOfEach.filter((c) => (c.distance ?? 0) <= 9);
    if (v.name.startsWith('default')) return cases;
    return firstOfEach;
  }
  return cases.filter((c) => /3x3 ([6-9])m #1/.test(c.name));
}

/** The cases of a variant: those `--match` names, or the variant's usual subset. */
function pick(v: Variant, cases: Case[], size: 2 | 3): Case[] {
  return caseFilter === undefined ? casesFor(v, cases, size) : cases.filter((c) => caseFilter.test(c.name));
}

const rows: Row[] = [];
const machine = {
  cpus: cpus().length,
  loadavgAtStart: loadavg().map((x) => Number(x.toFixed(2))),
  capMs: CAP_MS,
  parallelism: PARALLELISM,
};
console.log(
  `cube benchmark: ${machine.cpus} cores, load ${machine.loadavgAtStart.join(' ')}, cap ${CAP_MS / 1000} s per sweep${quick ? ' (quick)' : ''}`,
);

if (only === undefined || only === '2x2') {
  const cases = pocketCases();
  console.log('\n2x2, half-turn metric');
  for (const v of selected(POCKET_VARIANTS)) {
    console.log(`  ${v.name}: ${describe(v, 2)}`);
    for (const c of pick(v, cases, 2)) rows.push(await sweep(c, v));
  }
  printRows(rows.filter((r) => r.instance.startsWith('2x2')));
}
if (only === undefined || only === '3x3') {
  const cases = rubikCases(quick ? [4, 6, 8, 9] : [4, 5, 6, 7, 8, 9, 10], quick ? 1 : 2);
  console.log('\n3x3, half-turn metric');
  for (const v of selected(RUBIK_VARIANTS)) {
    console.log(`  ${v.name}: ${describe(v, 3)}`);
    for (const c of pick(v, cases, 3)) rows.push(await sweep(c, v));
  }
  printRows(rows.filter((r) => r.instance.startsWith('3x3')));
}

// A run of some sizes, variants or cases keeps the other rows of the last result.
const out = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench/results/cube.json');
const ran = new Set(rows.map((r) => `${r.instance}|${r.variant}`));
const kept = existsSync(out)
  ? ((JSON.parse(readFileSync(out, 'utf8')) as { rows?: Row[] }).rows?.filter(
      (r) => !ran.has(`${r.instance}|${r.variant}`),
    ) ?? [])
  : [];
const allRows = [...kept, ...rows];
const summary = {
  '2x2 default': summarize(
    allRows.filter((r) => r.instance.startsWith('2x2')),
    'default',
  ),
  '3x3 default by scramble length': Object.fromEntries(
    [
      ...new Set(
        allRows
          .filter((r) => r.instance.startsWith('3x3') && r.variant === 'default')
          .map((r) => /(\d+)m/.exec(r.instance)![1]!),
      ),
    ].map((d) => [
      `${d} moves`,
      summarize(
        allRows.filter((r) => r.instance.startsWith(`3x3 ${d}m`)),
        'default',
      ),
    ]),
  ),
};
console.log('\nsummary', JSON.stringify(summary, null, 1));

mkdirSync(dirname(out), { recursive: true });
writeFileSync(
  out,
  `${JSON.stringify({ date: new Date().toISOString(), machine, quick, summary, rows: allRows }, null, 1)}\n`,
);
console.log(`wrote ${out} (${rows.length} rows from this run, ${kept.length} kept from the last)`);
