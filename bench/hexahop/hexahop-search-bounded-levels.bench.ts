/*
 * The bounded search held to the SAT runs: for every level whose fewest moves a SAT run of
 * bench/results proved (a plan, UNSAT one below), searchWinWithin with that many moves as its
 * bound must find a plan of exactly that many, no fewer (its pruning bound, movesLeftBound, would
 * then have cut a state it must keep, or the SAT proof would be wrong) and not none (a plan the
 * simulator replays exists). Levels with items, or tiles that may spread over the map, are
 * refused; a level whose kept states pass --max-states is capped (no verdict). Exits 1 on a
 * disagreement. The levels table reads the rows as the search's answers, beside the SAT ones.
 * Run: node dist/bench/hexahop/hexahop-search-bounded-levels.bench.js [--max-states N]
 *        [--only A,B] [--out NAME|PATH]
 */
import { performance } from 'node:perf_hooks';

import { boundedSearchProblem, instanceOfLevel, loadLevelCatalog, searchWinWithin } from '@satfarm/games';

import {
  benchArgs,
  integerOption,
  machineFields,
  resultsPath,
  selectLevels,
  writeResults,
} from './bench-options.js';
import { readLevelRecords } from './level-results.js';

const { args, fail } = benchArgs('hexahop bounded search levels bench', {
  'max-states': { type: 'string', default: '3000000' },
  only: { type: 'string' },
  out: { type: 'string', default: 'hexahop-search-bounded-levels' },
});

interface Row {
  number: number;
  level: string;
  par: number;
  /** The SAT runs' proven fewest moves. */
  sat: number;
  /** The fewest moves the search found, `>d` when capped after depth d, or why it refused. */
  search: string;
  /** No win has fewer moves, by the search. */
  lower?: number;
  score?: number;
  states?: number;
  seconds?: number;
  /** same / DISAGREE / capped / refused */
  check: string;
  plan?: string;
}

function main(): void {
  const maxStates = integerOption(args['max-states'], 1, 'max-states', fail);
  const records = readLevelRecords((reason) => fail('records', reason));
  const rows: Row[] = [];
  for (const entry of selectLevels(loadLevelCatalog(), args.only, fail)) {
    const sat = records.get(entry.name)?.optimum;
    if (!entry.supported || sat === undefined) continue;
    const instance = instanceOfLevel(entry);
    const base = { number: entry.number, level: entry.name, par: entry.par, sat };
    const problem = boundedSearchProblem(instance);
    if (problem !== undefined) {
      rows.push({ ...base, search: problem, check: 'refused' });
      continue;
    }
    const began = performance.now();
    let outcome;
    try {
      outcome = searchWinWithin(instance, sat, { maxStates });
    } catch (error) {
      rows.push({ ...base, search: (error as Error).message, check: 'refused' });
      continue;
    }
    const seconds = Math.round((performance.now() - began) / 100) / 10;
    const moves = outcome.plan?.length;
    const lower = outcome.lower;
    const check = moves === sat ? 'same' : outcome.capped && moves === undefined ? 'capped' : 'DISAGREE';
    const row: Row = {
      ...base,
      search: moves !== undefined ? String(moves) : `>${lower - 1}`,
      lower,
      ...(outcome.score === undefined ? {} : { score: outcome.score }),
      states: outcome.states,
      seconds,
      check,
      ...(outcome.plan === undefined ? {} : { plan: outcome.plan.join(' ') }),
    };
    rows.push(row);
    console.log(
      `${row.number} ${row.level}: SAT ${sat}, search ${row.search} (${row.states} states, ${seconds} s): ${check}`,
    );
  }
  console.table(rows.map(({ plan: _plan, ...shown }) => shown));
  const count = (check: string): number => rows.filter((r) => r.check === check).length;
  const summary = {
    levels: rows.length,
    same: count('same'),
    capped: count('capped'),
    refused: count('refused'),
    disagree: count('DISAGREE'),
  };
  console.log(JSON.stringify(summary));
  writeResults(resultsPath(args.out), {
    bench: 'hexahop-search-bounded-levels',
    ...machineFields(),
    maxStates,
    summary,
    rows,
  });
  if (summary.disagree > 0) process.exitCode = 1;
}

main();
