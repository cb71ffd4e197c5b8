import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, resolve } from 'node:path';

import { generateSingles, solveWithRefinement } from '@satfarm/engine';
import {
  encodeSingles,
  encodeTowers,
  parseSinglesInstance,
  parseTowersInstance,
  type SinglesInstance,
  type TowersInstance,
  verifySingles,
  verifyTowers,
} from '@satfarm/games';
import { KissatRunner } from '@satfarm/solver';
import { median } from '../statistics.js';

/**
 * Towers and Singles solve times per size: each puzzle solved and then proven unique (a second
 * solve with the first solution blocked), for several encodings side by side. Towers: the stored
 * sgt-towers corpus, 3x3 to 9x9, with and without the clue bounds and with two cardinality
 * encodings. Singles: the stored sgt-singles corpus, 4x4 to 12x12, plus larger puzzles from our
 * generator, with each connectivity method: eager spanning tree, eager reachability (both with
 * the neighbour cuts, as by default), lazy cuts with and without the neighbour cuts up front. Times are wall-clock over encode and every solver
 * call (refinement rounds included); medians over the puzzles of a size. Run from the repository
 * root after `npm run build`:
 *
 *   node dist/bench/puzzles/puzzles.bench.js [runs]
 *
 * With runs > 1 each puzzle's time is its median over that many runs. Prints two tables and writes
 * bench/results/puzzles.json.
 */

interface StoredPuzzle {
  params: string;
  id: string;
}

interface Measured {
  ms: number;
  firstMs: number;
  rounds: number;
  vars: number;
  clauses: number;
}

type Variant = Record<string, string | boolean>;

const RUNS = Number(process.argv[2] ?? 1);
const RESULT_FILE = resolve('bench/results/puzzles.json');
const TOWERS_VARIANTS: Record<string, Variant> = {
  default: {},
  'no-bounds': { bounds: false },
  sequential: { cardinality: 'sequential' },
};
const SINGLES_VARIANTS: Record<string, Variant> = {
  tree: { connectivity: 'tree', neighbourCuts: true },
  reach: { connectivity: 'reach', neighbourCuts: true },
  lazy: { connectivity: 'lazy', neighbourCuts: true },
  'lazy-plain': { connectivity: 'lazy', neighbourCuts: false },
};
const GENERATED_SINGLES: [number, number][] = [
  [15, 15],
  [20, 20],
];
const kissat = new KissatRunner();

function stored(name: string): StoredPuzzle[] {
  const text = readFileSync(resolve(`test/fixtures/puzzles/${name}.json`), 'utf8');
  return (JSON.parse(text) as { puzzles: StoredPuzzle[] }).puzzles;
}

function round(x: number): number {
  return Math.round(x * 10) / 10;
}

async function solveTowersTwice(instance: TowersInstance, variant: Variant): Promise<Measured> {
  const start = performance.now();
  const encoded = encodeTowers(instance, { variant });
  const size = { vars: encoded.formula.numVars, clauses: encoded.formula.numClauses };
  const first = await kissat.solve({ formula: encoded.formula });
  if (first.status !== 'sat') throw new Error(`towers: expected sat, got ${first.status}`);
  const firstMs = performance.now() - start;
  const verdict = verifyTowers(instance, encoded.decode(first.model));
  if (!verdict.ok) throw new Error(`towers: wrong solution: ${verdict.reason}`);
  encoded.formula.add(encoded.blockingClause!(first.model));
  const second = await kissat.solve({ formula: encoded.formula });
  if (second.status !== 'unsat') throw new Error(`towers: expected a unique solution, got ${second.status}`);
  return { ms: performance.now() - start, firstMs, rounds: 2, ...size };
}

async function solveSinglesTwice(instance: SinglesInstance, variant: Variant): Promise<Measured> {
  const start = performance.now();
  const encoded = encodeSingles(instance, { variant });
  const size = { vars: encoded.formula.numVars, clauses: encoded.formula.numClauses };
  const first = await solveWithRefinement(encoded, kissat);
  if (first.outcome.status !== 'sat') throw new Error(`singles: expected sat, got ${first.outcome.status}`);
  const firstMs = performance.now() - start;
  const verdict = verifySingles(instance, encoded.decode(first.outcome.model));
  if (!verdict.ok) throw new Error(`singles: wrong solution: ${verdict.reason}`);
  encoded.formula.add(encoded.blockingClause!(first.outcome.model));
  const second = await solveWithRefinement(encoded, kissat);
  if (second.outcome.status !== 'unsat')
    throw new Error(`singles: expected a unique solution, got ${second.outcome.status}`);
  return { ms: performance.now() - start, firstMs, rounds: first.rounds + second.rounds, ...size };
}

/** Runs `measure` RUNS times and keeps the run of median total time. */
async function repeated(measure: () => Promise<Measured>): Promise<Measured> {
  const runs: Measured[] = [];
  for (let i = 0; i < RUNS; i++) runs.push(await measure());
  runs.sort((a, b) => a.ms - b.ms);
  return runs[Math.floor(runs.length / 2)]!;
}

interface SizeRow {
  size: string;
  puzzles: number;
  /** Per variant: medians over the size's puzzles. */
  variants: Record<
    string,
    { vars: number; clauses: number; firstMs: number; uniqueMs: number; rounds: number }
  >;
}

async function measureSizes<I>(
  groups: Map<string, I[]>,
  variants: Record<string, Variant>,
  solveTwice: (instance: I, variant: Variant) => Promise<Measured>,
): Promise<SizeRow[]> {
  const rows: SizeRow[] = [];
  for (const [size, instances] of groups) {
    const row: SizeRow = { size, puzzles: instances.length, variants: {} };
    for (const [name, variant] of Object.entries(variants)) {
      const results: Measured[] = [];
      for (const instance of instances) results.push(await repeated(() => solveTwice(instance, variant)));
      row.variants[name] = {
        vars: median(results.map((r) => r.vars)),
        clauses: median(results.map((r) => r.clauses)),
        firstMs: round(median(results.map((r) => r.firstMs))),
        uniqueMs: round(median(results.map((r) => r.ms))),
        rounds: round(results.reduce((sum, r) => sum + r.rounds, 0) / results.length),
      };
    }
    rows.push(row);
    console.error(`measured ${size}`);
  }
  return rows;
}

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) groups.set(key(item), [...(groups.get(key(item)) ?? []), item]);
  return groups;
}

function printTable(title: string, rows: SizeRow[], variants: string[], withRounds: boolean): void {
  const header = [
    'size',
    'puzzles',
    ...variants.flatMap((v) => [`${v} clauses`, `${v} ms`, ...(withRounds ? [`${v} rounds`] : [])]),
  ];
  const cells = rows.map((r) => [
    r.size,
    String(r.puzzles),
    ...variants.flatMap((v) => {
      const m = r.variants[v]!;
      return [String(m.clauses), `${m.firstMs}/${m.uniqueMs}`, ...(withRounds ? [String(m.rounds)] : [])];
    }),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]): string =>
    values.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  console.log(`\n${title} (ms = median solve / solve + uniqueness proof)`);
  console.log(line(header));
  for (const c of cells) console.log(line(c));
}

async function main(): Promise<void> {
  if (!Number.isInteger(RUNS) || RUNS < 1)
    throw new Error(`runs must be a positive integer, got ${process.argv[2]}`);
  const started = new Date().toISOString();
  const load = loadavg();
  await solveTowersTwice(parseTowersInstance('3:3/1/2/1/2/2/2/2/1/2/1/3'), {});

  const towers = groupBy(
    stored('towers').map((p) => parseTowersInstance(p.id)),
    (t) => `${t.n}x${t.n}`,
  );
  const towersRows = await measureSizes(towers, TOWERS_VARIANTS, solveTowersTwice);

  const singlesList = stored('singles').map((p) => parseSinglesInstance(p.id));
  const generation: { size: string; seed: number; ms: number; solves: number }[] = [];
  for (const [width, height] of GENERATED_SINGLES) {
    for (const seed of [1, 2, 3]) {
      const start = performance.now();
      const generated = await generateSingles({ width, height, seed });
      generation.push({
        size: `${width}x${height}`,
        seed,
        ms: round(performance.now() - start),
        solves: generated.solves,
      });
      singlesList.push(generated.instance);
    }
  }
  const singles = groupBy(singlesList, (s) => `${s.width}x${s.height}`);
  const singlesRows = await measureSizes(singles, SINGLES_VARIANTS, solveSinglesTwice);

  printTable('Towers (sgt-towers corpus)', towersRows, Object.keys(TOWERS_VARIANTS), false);
  printTable(
    'Singles (sgt-singles corpus; 15x15 and 20x20 from generateSingles)',
    singlesRows,
    Object.keys(SINGLES_VARIANTS),
    true,
  );
  console.log('\nSingles generation (lazy connectivity):');
  for (const g of generation) console.log(`  ${g.size} seed ${g.seed}: ${g.ms} ms, ${g.solves} solver calls`);

  await mkdir(dirname(RESULT_FILE), { recursive: true });
  const result = {
    started,
    machine: { cpus: cpus().length, loadAverage1m: round(load[0]!) },
    solver: await kissat.version(),
    runs: RUNS,
    towers: { variants: TOWERS_VARIANTS, sizes: towersRows },
    singles: { variants: SINGLES_VARIANTS, sizes: singlesRows, generation },
  };
  await writeFile(RESULT_FILE, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`\nwrote ${RESULT_FILE}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
