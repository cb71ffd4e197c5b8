/*
 * Hex-a-Hop plans by beam search, beside the SAT answers: for each level, a beam search over the
 * simulator's states per ranking and width (see beamSearchWin), the shortest plan kept. A plan
 * proves nothing about shorter ones; it is an upper bound, so the levels the SAT runs leave open
 * get a replayed plan and a finite gap. Each level is held to what the SAT runs in bench/results
 * proved: no plan below a proven optimum or lower bound (DISAGREE, exit 1).
 * Run: node --max-old-space-size=8000 dist/bench/hexahop/hexahop-beam.bench.js [--widths 1000,10000]
 *        [--rankings reach,leaves,count] [--max-depth N] [--only A,B] [--out NAME|PATH]
 * Without --max-depth, each level's default horizon cap, as the quick plan has it; with
 * `--widths 200 --rankings reach`, each level's attempt is the quick plan's search.
 * Time and memory grow with the width: about 5 s and 150 MB per ranking at 2,000 states on the
 * larger levels, ten times that at 20,000.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

import {
  BEAM_RANKINGS,
  type BeamRanking,
  beamSearchWin,
  hexahopDefaultMaxHorizon,
  scoreOf,
  instanceOfLevel,
  loadLevelCatalog,
  verifyHexahop,
} from '@satfarm/games';

import { benchArgs, integerOption, resultsPath, selectLevels, writeResults } from './bench-options.js';
import { hexahopResultFiles, type LevelResults, readLevelResults } from './level-results.js';
import { median } from '../statistics.js';

const { args, fail } = benchArgs('hexahop beam bench', {
  widths: { type: 'string', default: '1000' },
  rankings: { type: 'string', default: BEAM_RANKINGS.join(',') },
  'max-depth': { type: 'string' },
  only: { type: 'string' },
  out: { type: 'string', default: 'hexahop-beam' },
});

const widths = args.widths.split(',').map((w) => integerOption(w.trim(), 1, 'widths', fail));
const rankings = args.rankings.split(',').map((r) => r.trim());
for (const r of rankings) {
  if (!(BEAM_RANKINGS as readonly string[]).includes(r))
    fail('rankings', `unknown ranking '${r}'; known: ${BEAM_RANKINGS.join(', ')}`);
}
const maxDepth =
  args['max-depth'] === undefined ? undefined : integerOption(args['max-depth'], 1, 'max-depth', fail);
const out = resultsPath(args.out);

/** One beam search: a ranking at a width. */
interface Attempt {
  ranking: BeamRanking;
  width: number;
  /** The plan's moves, or `-` when the beam emptied or reached --max-depth without a win. */
  moves: number | '-';
  states: number;
  seconds: number;
}

interface Row {
  number: number;
  level: string;
  par: number;
  /** The fewest moves among the attempts' plans (all replayed and verified). */
  moves?: number;
  score?: number;
  /** The attempt that found it, as `ranking@width`. */
  by?: string;
  seconds: number;
  /** What the SAT runs proved: `n` (optimal), `n..?` (a lower bound), or `-`. */
  sat: string;
  /** optimal (the proven optimum) / +k (k above it) / upper bound (above an open bound) / DISAGREE / - */
  check: string;
  attempts: Attempt[];
  plan?: string;
}

function checkOf(found: number | undefined, proven: LevelResults | undefined): string {
  if (found === undefined) return '-';
  if (proven?.optimum !== undefined) {
    if (found < proven.optimum) return 'DISAGREE';
    return found === proven.optimum ? 'optimal' : `+${found - proven.optimum}`;
  }
  return found < (proven?.lower ?? 0) ? 'DISAGREE' : 'upper bound';
}

function main(): void {
  const proven = readLevelResults(hexahopResultFiles(), (reason) => fail(undefined, reason));
  const catalog = selectLevels(loadLevelCatalog(), args.only, fail);
  console.log(
    `hexahop beam: widths ${widths.join(', ')}, rankings ${rankings.join(', ')}, up to ${maxDepth ?? "each level's default horizon cap"} moves`,
  );
  const rows: Row[] = [];
  for (const entry of catalog) {
    const instance = instanceOfLevel(entry);
    const attempts: Attempt[] = [];
    let best: { plan: string[]; score: number; by: string } | undefined;
    for (const ranking of rankings as BeamRanking[]) {
      for (const width of widths) {
        const began = performance.now();
        const depth = maxDepth ?? hexahopDefaultMaxHorizon(instance);
        const outcome = beamSearchWin(instance, { width, maxDepth: depth, ranking });
        const seconds = Math.round((performance.now() - began) / 100) / 10;
        attempts.push({
          ranking,
          width,
          moves: outcome.plan?.length ?? '-',
          states: outcome.states,
          seconds,
        });
        if (outcome.plan === undefined) continue;
        const score = scoreOf(instance, outcome.plan);
        const verdict = verifyHexahop(instance, { moves: outcome.plan, score: score }, outcome.plan.length);
        if (!verdict.ok)
          throw new Error(`${entry.name}: a beam plan the simulator rejects: ${verdict.reason}`);
        if (best === undefined || outcome.plan.length < best.plan.length) {
          best = { plan: outcome.plan, score: score, by: `${ranking}@${width}` };
        }
      }
    }
    const p = proven.get(entry.name);
    const row: Row = {
      number: entry.number,
      level: entry.name,
      par: entry.par,
      ...(best === undefined ? {} : { moves: best.plan.length, score: best.score, by: best.by }),
      seconds: Math.round(attempts.reduce((s, a) => s + a.seconds, 0) * 10) / 10,
      sat: p === undefined ? '-' : p.optimum !== undefined ? String(p.optimum) : `${p.lower}..?`,
      check: checkOf(best?.plan.length, p),
      attempts,
      ...(best === undefined ? {} : { plan: best.plan.join(' ') }),
    };
    rows.push(row);
    console.log(
      `${row.number} ${row.level}: beam ${row.moves ?? '-'}${row.by === undefined ? '' : ` (${row.by})`}, ` +
        `sat ${row.sat}: ${row.check} (${row.seconds} s)`,
    );
  }
  console.table(rows.map(({ plan: _plan, attempts: _attempts, ...shown }) => shown));
  const summary = {
    levels: rows.length,
    found: rows.filter((r) => r.moves !== undefined).length,
    optimal: rows.filter((r) => r.check === 'optimal').length,
    above: rows.filter((r) => r.check.startsWith('+')).length,
    upperBounds: rows.filter((r) => r.check === 'upper bound').length,
    disagree: rows.filter((r) => r.check === 'DISAGREE').length,
    byRanking: Object.fromEntries(
      rankings.map((r) => [r, rows.filter((row) => row.by?.startsWith(`${r}@`)).length]),
    ),
    /** Per level, every attempt's time together. */
    secondsMedian: Math.round(median(rows.map((r) => r.seconds)) * 10) / 10,
    secondsMax: Math.max(...rows.map((r) => r.seconds)),
  };
  console.log(JSON.stringify(summary));
  writeResults(out, {
    bench: 'hexahop-beam',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    widths,
    rankings,
    maxDepth: maxDepth ?? 'level cap',
    summary,
    rows,
  });
  if (summary.disagree > 0) process.exitCode = 1;
}

main();
