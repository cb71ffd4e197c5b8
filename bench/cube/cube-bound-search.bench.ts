/*
 * The 3x3 bound's search (docs/games.md#cube): how far it raises the pattern tables' bound, how
 * often it proves the optimum, and what it costs in nodes and time, by how many readings of the
 * edge table it consults.
 *
 *   node dist/bench/cube/cube-bound-search.bench.js [--samples N] [--budget NODES] [--sets 3,5,25]
 *
 * N random move sequences (default 20) of 10, 12 and 14 moves of each metric (quarter turns only
 * in qtm; a move may undo the last, so some are shorter than they look), the same for every set
 * count; each searched with a budget of NODES (default 200,000, the
 * default of SATFARM_BOUND_SEARCH_NODES). Needs the tables (`satfarm cube-tables build`). Prints a
 * table and writes bench/results/cube-bound-search.json.
 */
import { loadavg } from 'node:os';

import {
  CubeState,
  cubeLowerBound,
  loadStrongCubeBound,
  type Metric,
  searchLowerBound,
  solverMoves,
  strongSearchPatterns,
} from '@satfarm/games';

import {
  benchArgs,
  integerOption,
  machineFields,
  resultsPath,
  writeResults,
} from '../hexahop/bench-options.js';
import { median } from '../statistics.js';

const { args, fail } = benchArgs('cube-bound-search', {
  samples: { type: 'string', default: '20' },
  budget: { type: 'string', default: '200000' },
  sets: { type: 'string', default: '3,5,25' },
});
const samples = integerOption(args.samples, 1, 'samples', fail);
const budget = integerOption(args.budget, 1, 'budget', fail);
const setCounts = args.sets.split(',').map((s) => integerOption(s.trim(), 1, 'sets', fail));

/** `length` moves of the metric from a seeded generator's high bits. */
function scramble(metric: Metric, length: number, seed: number): CubeState {
  const moves = solverMoves(3, metric);
  let x = seed;
  const picked = [];
  for (let i = 0; i < length; i++) {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    picked.push(moves[Math.floor((x / 2 ** 31) * moves.length)]!);
  }
  return CubeState.solved(3).applyAll(picked);
}

interface Row {
  metric: Metric;
  length: number;
  edgeSets: number;
  /** Mean bound of the tables alone, and after the search. */
  tableMean: number;
  searchMean: number;
  /** Scrambles whose optimum the search proved. */
  exact: number;
  samples: number;
  medianNodes: number;
  maxNodes: number;
  medianMs: number;
  maxMs: number;
}

const rows: Row[] = [];
/** The move tables' first build per metric (later set counts reuse them). */
const prepareMs: Record<string, number> = {};
for (const metric of ['htm', 'qtm'] as const) {
  const strong =
    loadStrongCubeBound(metric) ?? fail('tables', `no ${metric} tables: run bin/satfarm cube-tables build`);
  for (const edgeSets of setCounts) {
    const patterns = strongSearchPatterns(strong, edgeSets);
    const t0 = performance.now();
    for (const p of patterns) p.coordinate.prepare();
    prepareMs[metric] ??= performance.now() - t0;
    for (const length of [10, 12, 14]) {
      const found = [];
      for (let i = 0; i < samples; i++) {
        const state = scramble(metric, length, 7000 + 100 * length + i);
        const start = cubeLowerBound({ size: 3, metric, facelets: state.toFacelets() }, undefined, strong, 0);
        const t = performance.now();
        const r = searchLowerBound(state, metric, patterns, { start, nodeBudget: budget });
        found.push({ start, ...r, ms: performance.now() - t });
      }
      const row: Row = {
        metric,
        length,
        edgeSets: patterns.length - 1,
        tableMean: found.reduce((s, f) => s + f.start, 0) / samples,
        searchMean: found.reduce((s, f) => s + f.bound, 0) / samples,
        exact: found.filter((f) => f.exact).length,
        samples,
        medianNodes: median(found.map((f) => f.nodes)),
        maxNodes: Math.max(...found.map((f) => f.nodes)),
        medianMs: median(found.map((f) => f.ms)),
        maxMs: Math.max(...found.map((f) => f.ms)),
      };
      rows.push(row);
      console.log(
        `${metric} ${String(length).padStart(2)} moves  edge sets ${String(row.edgeSets).padStart(2)}  ` +
          `bound ${row.tableMean.toFixed(2)} -> ${row.searchMean.toFixed(2)}  exact ${row.exact}/${samples}  ` +
          `nodes median ${row.medianNodes} max ${row.maxNodes}  ms median ${row.medianMs.toFixed(1)} max ${row.maxMs.toFixed(1)}`,
      );
    }
  }
}

writeResults(resultsPath('cube-bound-search'), {
  benchmark: 'cube-bound-search',
  ...machineFields(),
  loadavg: loadavg(),
  budget,
  moveTablesMs: prepareMs,
  rows,
});
