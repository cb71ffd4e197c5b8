/*
 * Hex-a-Hop levels whose tiles may spread over the map, encoded in a window: the size of the
 * formula at a horizon per window radius (30 takes in 864 of the 900 cells of Rolling Hexagons'
 * map), and how far the game really spreads the tiles: the cells that ever hold a tile in the
 * states a search over every state reaches before its first win, and their distance from the
 * level's tiles.
 * Run: node --max-old-space-size=8000 dist/bench/hexahop/hexahop-window.bench.js
 *        [--level NAME] [--horizon T] [--radii 2,3,30] [--out NAME|PATH]
 */
import { performance } from 'node:perf_hooks';

import {
  encodeHexahop,
  instanceOfLevel,
  loadLevelCatalog,
  searchShortestWin,
  Tile,
  windowAround,
} from '@satfarm/games';

import { benchArgs, integerOption, resultsPath, selectLevels, writeResults } from './bench-options.js';

const { args, fail } = benchArgs('hexahop window bench', {
  level: { type: 'string', default: 'Rolling Hexagons' },
  horizon: { type: 'string', default: '39' },
  radii: { type: 'string', default: '2,3,30' },
  out: { type: 'string', default: 'hexahop-window' },
});

function integer(option: string, text: string, min: number): number {
  return integerOption(text, min, option, fail);
}

const [entry] = selectLevels(loadLevelCatalog(), args.level, fail);
const horizon = integer('horizon', args.horizon, 1);
const radii = args.radii.split(',').map((r) => integer('radii', r, 0));
const out = resultsPath(args.out);
const instance = instanceOfLevel(entry!);
const count = (mask: Uint8Array): number => mask.reduce((n, v) => n + v, 0);

const sizes = radii.map((radius) => {
  const start = performance.now();
  const { formula } = encodeHexahop(instance, horizon, { variant: { window: radius } });
  const encodeMs = Math.round(performance.now() - start);
  return {
    radius,
    cells: count(windowAround(instance.tiles, radius)),
    vars: formula.numVars,
    clauses: formula.numClauses,
    encodeMs,
  };
});
console.table(sizes);

// The game's own spread: the cells that ever hold a tile in the states a search over every state
// reaches before its first win.
const distance = (cell: number): number => {
  for (let r = 0; ; r++) if (windowAround(instance.tiles, r)[cell] === 1) return r;
};
const land = new Set<number>();
const searched = searchShortestWin(instance, 5_000_000, (sim) => {
  for (let c = 0; c < instance.tiles.length; c++) if (sim.tile(c) !== Tile.Water) land.add(c);
});
const farthest = Math.max(...[...land].map(distance));
const reach = { fewestMoves: searched.plan?.length, states: searched.states, landCells: land.size, farthest };
console.log(
  `${entry!.name}: the search reaches ${searched.states} states before its first win (${searched.plan?.length ?? 'none'} moves); a tile on ${land.size} cells in all, the farthest ${farthest} steps from the level's tiles`,
);
writeResults(out, {
  bench: 'hexahop-window',
  date: new Date().toISOString(),
  node: process.version,
  level: entry!.name,
  horizon,
  sizes,
  reach,
});
