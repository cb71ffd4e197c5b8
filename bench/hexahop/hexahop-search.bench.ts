/*
 * Hex-a-Hop by search, beside the SAT answers: a breadth-first search over the simulator's states
 * finds the fewest moves on every level whose reachable states fit under --max-states, with no
 * encoding involved, and says how deep it got on the others. Each level is held to what the
 * SAT runs in bench/results proved: the same optimum, no plan below a proven lower bound, no
 * optimum above the depth the search exhausted. Refused levels get their answer here alone.
 * Run: node dist/bench/hexahop/hexahop-search.bench.js [--max-states N] [--only A,B]
 *        [--against FILE,FILE] [--out NAME|PATH]
 * Memory grows with the cap (851,328 states of Archipeligo: 670 MB peak); caps far above the
 * default million need node's --max-old-space-size.
 */
import { cpus } from 'node:os';
import { performance } from 'node:perf_hooks';

import { scoreOf, instanceOfLevel, loadLevelCatalog, searchShortestWin } from '@satfarm/games';

import { benchArgs, resultsPath, selectLevels, writeResults } from './bench-options.js';
import { hexahopResultFiles, type LevelResults, readLevelResults } from './level-results.js';

const { args, fail } = benchArgs('hexahop search bench', {
  'max-states': { type: 'string', default: '1000000' },
  only: { type: 'string' },
  against: { type: 'string' },
  out: { type: 'string', default: 'hexahop-search' },
});

const maxStates = Number(args['max-states']);
if (!Number.isInteger(maxStates) || maxStates < 1) {
  fail('max-states', `must be a positive integer, got '${args['max-states']}'`);
}
const out = resultsPath(args.out);

interface Row {
  number: number;
  level: string;
  par: number;
  /** Fewest moves found by the search, or `>d` when it stopped at the cap after depth d. */
  search: string;
  score?: number;
  states: number;
  seconds: number;
  /** What the SAT runs proved: `n` (optimal), `n..?` (a lower bound), or `-`. */
  sat: string;
  /** same / consistent / search only / DISAGREE / - */
  check: string;
  plan?: string;
}

function checkOf(found: number | undefined, depth: number, proven: LevelResults | undefined): string {
  if (proven === undefined) return found === undefined ? '-' : 'search only';
  if (proven.optimum !== undefined) {
    if (found !== undefined) return found === proven.optimum ? 'same' : 'DISAGREE';
    return proven.optimum > depth ? 'consistent' : 'DISAGREE';
  }
  if (found !== undefined) return found >= proven.lower ? 'search only' : 'DISAGREE';
  return '-';
}

function main(): void {
  const against = args.against?.split(',').map((f) => resultsPath(f.trim())) ?? hexahopResultFiles();
  const proven = readLevelResults(against, (reason) => fail('against', reason));
  const catalog = selectLevels(loadLevelCatalog(), args.only, fail);
  console.log(`hexahop search: up to ${maxStates} states per level, against ${against.length} result files`);
  const rows: Row[] = [];
  for (const entry of catalog) {
    const instance = instanceOfLevel(entry);
    const began = performance.now();
    const outcome = searchShortestWin(instance, maxStates);
    const seconds = Math.round((performance.now() - began) / 100) / 10;
    const found = outcome.plan?.length;
    let score: number | undefined;
    if (outcome.plan !== undefined) {
      score = scoreOf(instance, outcome.plan);
    }
    const p = proven.get(entry.name);
    const row: Row = {
      number: entry.number,
      level: entry.name,
      par: entry.par,
      search: found !== undefined ? String(found) : outcome.capped ? `>${outcome.searchedDepth}` : 'no win',
      ...(score === undefined ? {} : { score }),
      states: outcome.states,
      seconds,
      sat: p === undefined ? '-' : p.optimum !== undefined ? String(p.optimum) : `${p.lower}..?`,
      check: checkOf(found, outcome.searchedDepth, p),
      ...(outcome.plan === undefined ? {} : { plan: outcome.plan.join(' ') }),
    };
    rows.push(row);
    console.log(
      `${row.number} ${row.level}: search ${row.search} (${row.states} states, ${row.seconds} s), sat ${row.sat}: ${row.check}`,
    );
  }
  console.table(rows.map(({ plan: _plan, ...shown }) => shown));
  const count = (check: string): number => rows.filter((r) => r.check === check).length;
  const summary = {
    levels: rows.length,
    found: rows.filter((r) => r.score !== undefined).length,
    same: count('same'),
    consistent: count('consistent'),
    searchOnly: count('search only'),
    disagree: count('DISAGREE'),
  };
  console.log(JSON.stringify(summary));
  writeResults(out, {
    bench: 'hexahop-search',
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    maxStates,
    against: against.map((f) => f.replace(/^.*\//, '')),
    summary,
    rows,
  });
  if (summary.disagree > 0) process.exitCode = 1;
}

main();
