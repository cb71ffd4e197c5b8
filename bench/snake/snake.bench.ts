/*
 * Snake benchmark: the seed's pairwise formulation against ours, the encoding choices against
 * each other, and how a full horizon sweep grows with the grid and the apple count.
 * Run: node dist/bench/snake/snake.bench.js [--quick]. Writes bench/results/snake.json.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import type { CnfFormula, Model } from '@satfarm/cnf';
import { solveParsed } from '@satfarm/engine';
import {
  type AppleOrder,
  encodeSnake,
  generateSnake,
  snakeGame,
  snakeLowerBound,
  type SnakeInstance,
  type SnakeSolution,
  verifySnake,
} from '@satfarm/games';
import { KissatRunner } from '@satfarm/solver';

import { encodeSeedPairwise } from './seed-pairwise.encoding.js';

const quick = process.argv.includes('--quick');
const kissat = new KissatRunner();
const BASELINE_CAP_MS = 60_000;
const SWEEP_TIMEOUT_SEC = quick ? 60 : 300;

interface Run {
  vars: number;
  clauses: number;
  result: string;
  ms: number;
  conflicts?: number;
  verified?: boolean;
}

async function run(
  instance: SnakeInstance,
  t: number,
  encoded: { formula: CnfFormula; decode(model: Model): SnakeSolution },
  timeoutMs?: number,
): Promise<Run> {
  const started = performance.now();
  const outcome = await kissat.solve({ formula: encoded.formula, timeoutMs });
  const ms = Math.round(performance.now() - started);
  const { vars, clauses } = encoded.formula.stats;
  const base = { vars, clauses, result: outcome.status, ms, conflicts: outcome.stats.conflicts };
  if (outcome.status !== 'sat') return base;
  return { ...base, verified: verifySnake(instance, encoded.decode(outcome.model), t).ok };
}

interface SweepRow {
  grid: string;
  apples: number;
  order: AppleOrder;
  seed: number;
  lowerBound: number;
  status: string;
  horizon?: number;
  horizons: string;
  clauses: number;
  wallMs: number;
}

async function sweep(
  width: number,
  height: number,
  apples: number,
  order: AppleOrder,
  seed: number,
): Promise<SweepRow> {
  const instance = generateSnake({ width, height, apples, seed, order });
  const report = await solveParsed(snakeGame, instance, { parallelism: 2, timeoutSec: SWEEP_TIMEOUT_SEC });
  if (
    report.solution !== undefined &&
    !verifySnake(instance, report.solution as SnakeSolution, report.horizon!).ok
  ) {
    throw new Error(`sweep plan fails verification: ${width}x${height} seed ${seed}`);
  }
  return {
    grid: `${width}x${height}`,
    apples,
    order,
    seed,
    lowerBound: snakeLowerBound(instance),
    status: report.status,
    horizon: report.horizon,
    horizons: report.horizons.map((h) => `${h.t}:${h.result}`).join(' '),
    clauses: report.stats.clauses,
    wallMs: report.stats.wallMs,
  };
}

function table(rows: object[]): void {
  console.table(rows);
}

async function main(): Promise<void> {
  const seeds = quick ? [1] : [1, 2, 3];
  const solver = await kissat.version();
  console.log(`snake benchmark, ${solver}${quick ? ' (quick)' : ''}`);

  console.log('\n1. The seed formulation vs ours: 10x10, 9 apples, any order, at T*-1 (UNSAT) and T* (SAT)');
  const versus: object[] = [];
  const optimum = new Map<number, { instance: SnakeInstance; best: number }>();
  for (const seed of seeds) {
    const instance = generateSnake({ width: 10, height: 10, apples: 9, seed });
    const report = await solveParsed(snakeGame, instance, { parallelism: 2, timeoutSec: SWEEP_TIMEOUT_SEC });
    if (report.status !== 'optimal' || report.horizon === undefined)
      throw new Error(`no optimum for seed ${seed}`);
    const best = report.horizon;
    optimum.set(seed, { instance, best });
    versus.push({
      seed,
      encoding: 'ours, full sweep',
      t: best,
      result: `${report.status} (${report.horizons.map((h) => `${h.t}:${h.result}`).join(' ')})`,
      clauses: report.stats.clauses,
      ms: report.stats.wallMs,
    });
    for (const t of [best - 1, best]) {
      const ours = await run(instance, t, encodeSnake(instance, t));
      versus.push({ seed, encoding: 'ours', t, ...ours });
      const seedEncoding = encodeSeedPairwise(instance, t);
      const baseline = await run(instance, t, seedEncoding, BASELINE_CAP_MS);
      versus.push({ seed, encoding: 'seed pairwise', t, ...baseline });
    }
  }
  table(versus);

  console.log('\n2. Encoding choices, conflicts and ms summed over T*-1 and T* of the instances above');
  const choices: object[] = [];
  const variants: Record<string, string | boolean>[] = [
    ...['product', 'sequential', 'commander', 'pairwise'].flatMap((amo) =>
      ['none', 'single', 'pairs', 'window'].map((deadline) => ({ amo, deadline })),
    ),
    { reach: false },
  ];
  for (const variant of quick ? variants.filter((v) => v.amo !== 'pairwise') : variants) {
    let conflicts = 0;
    let ms = 0;
    let clauses = 0;
    let unverified = 0;
    for (const { instance, best } of optimum.values()) {
      for (const t of [best - 1, best]) {
        const r = await run(instance, t, encodeSnake(instance, t, { variant }), BASELINE_CAP_MS);
        conflicts += r.conflicts ?? 0;
        ms += r.ms;
        clauses += r.clauses;
        if (r.result !== (t === best ? 'sat' : 'unsat') || (t === best && !r.verified)) unverified++;
      }
    }
    choices.push({ variant: JSON.stringify(variant), clauses, conflicts, ms, wrong: unverified });
  }
  table(choices);

  console.log('\n3. Full sweeps (parallelism 2) as the grid and the apple count grow');
  // [side, apples, order, seeds]: the largest sizes get one seed (each may take the full timeout).
  const sizes: Array<[number, number, AppleOrder, number[]]> = quick
    ? [
        [8, 6, 'any', [1]],
        [12, 12, 'any', [1]],
        [10, 9, 'given', [1]],
      ]
    : [
        [6, 4, 'any', seeds],
        [8, 6, 'any', seeds],
        [10, 9, 'any', seeds],
        [12, 12, 'any', seeds],
        [14, 14, 'any', seeds],
        [16, 16, 'any', [1]],
        [20, 20, 'any', [1]],
        [10, 9, 'given', seeds],
        [14, 14, 'given', seeds],
        [20, 20, 'given', [1]],
        [30, 30, 'given', [1]],
      ];
  const scaling: SweepRow[] = [];
  for (const [side, apples, order, sizeSeeds] of sizes) {
    for (const seed of sizeSeeds) {
      const row = await sweep(side, side, apples, order, seed);
      scaling.push(row);
      console.log(
        `  ${row.grid} ${apples} apples ${order} seed ${seed}: ${row.status} T=${row.horizon ?? '-'} ` +
          `(lower bound ${row.lowerBound}) in ${row.wallMs} ms`,
      );
    }
  }
  table(scaling);

  const out = resolve(dirname(fileURLToPath(import.meta.url)), '../../../bench/results/snake.json');
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(
    out,
    `${JSON.stringify({ solver, quick, date: new Date().toISOString(), versus, choices, scaling }, null, 2)}\n`,
  );
  console.log(`\nwritten ${out}`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
