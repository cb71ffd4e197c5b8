/*
 * Hex-a-Hop by bounded search: for one level (default Forced Fire), a breadth-first search over
 * the simulator's states that drops every state from which the admissible movesLeftBound says no
 * win fits in the moves left (searchWinWithin). A plan it finds is a shortest one; none within
 * --bound (default: one below the shortest plan bench/results holds for the level) proves every
 * win longer, which with that plan proves it the fewest moves. A proof owing nothing to the SAT
 * encoding; the levels table counts it as one by search.
 * Prints each depth's states as it goes, then writes the layers, the states, the time and the
 * process's peak memory (35 to 40 bytes a state on Forced Fire).
 * Run: node dist/bench/hexahop/hexahop-search-bounded.bench.js [--level NAME] [--bound N]
 *        [--max-states N] [--out NAME|PATH]
 *      The default --out is hexahop-search-bounded-<level file name>; the search runs to its end
 *      or the state cap (default 600 million), and a signal ends it without a record.
 */
import { performance } from 'node:perf_hooks';

import { loadLevelCatalog, searchWinWithin } from '@satfarm/games';

import {
  benchArgs,
  integerOption,
  machineFields,
  oneLevel,
  resultsPath,
  selectLevels,
  writeResults,
} from './bench-options.js';
import { readLevelRecords } from './level-results.js';

const { args, fail } = benchArgs('hexahop bounded search bench', {
  level: { type: 'string', default: 'Forced Fire' },
  bound: { type: 'string' },
  'max-states': { type: 'string', default: '600000000' },
  out: { type: 'string' },
});

function main(): void {
  const instance = oneLevel(args.level, fail);
  const entry = selectLevels(loadLevelCatalog(), args.level, fail)[0]!;
  const known = readLevelRecords((reason) => fail('level', reason)).get(entry.name);
  const shortest = Math.min(...(known?.plans ?? []).map((p) => p.moves));
  const bound =
    args.bound !== undefined
      ? integerOption(args.bound, 1, 'bound', fail)
      : Number.isFinite(shortest)
        ? shortest - 1
        : fail('bound', `bench/results hold no plan of ${entry.name}: give one`);
  const maxStates = integerOption(args['max-states'], 1, 'max-states', fail);
  const out = resultsPath(args.out ?? `hexahop-search-bounded-${entry.file.replace(/[^a-z0-9]+/gi, '-')}`);
  console.log(
    `hexahop bounded search: ${entry.name}, wins of at most ${bound} moves, up to ${maxStates} states` +
      (known === undefined
        ? ''
        : ` (recorded: ${known.lower}..${Number.isFinite(shortest) ? shortest : '?'})`),
  );
  const began = performance.now();
  const seconds = (): number => Math.round((performance.now() - began) / 100) / 10;
  const layers: { depth: number; states: number; kept: number; seconds: number }[] = [];
  const outcome = searchWinWithin(instance, bound, {
    maxStates,
    onLayer: (depth, layer, kept) => {
      layers.push({ depth, states: layer, kept, seconds: seconds() });
      console.log(`depth ${depth}: ${layer} states, ${kept} kept, ${seconds()} s`);
    },
  });
  const moves = outcome.plan?.length;
  const lower = outcome.lower;
  const row = {
    number: entry.number,
    level: entry.name,
    par: entry.par,
    search: moves !== undefined ? String(moves) : `>${lower - 1}`,
    lower,
    ...(outcome.score === undefined ? {} : { score: outcome.score }),
    states: outcome.states,
    seconds: seconds(),
    peakMiB: Math.round(process.resourceUsage().maxRSS / 1024),
    ...(outcome.plan === undefined ? {} : { plan: outcome.plan.join(' ') }),
  };
  console.table(layers);
  console.table([{ ...row, plan: row.plan === undefined ? '-' : `${moves} moves` }]);
  writeResults(out, {
    bench: 'hexahop-search-bounded',
    ...machineFields(),
    bound,
    maxStates,
    capped: outcome.capped,
    layers,
    rows: [row],
  });
}

main();
