import { describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';
import { hexahopGame, instanceOfLevel, loadLevelCatalog, searchShortestWin } from '@satfarm/games';

import { solversUnder } from './support/process-table.js';

/**
 * Real levels small enough to search every state, one or more per kind of tile: the sweep's
 * proven optimum (a plan at T, UNSAT at T - 1, on the game's solver) must be the fewest moves
 * a breadth-first search over the simulator finds. An encoding that lost a plan, or allowed one
 * the game does not, would prove another number.
 */
const LEVELS = [
  'Hive', // normal, green
  'Trampolines', // trampolines, stone walls
  'Small Cog', // a spinner, green walls
  'Please Skate Safely', // a laser, ice, blue
  'Outposts', // a boat
  'Lifts', // lifts, blue walls
  'Crooked', // ice and an anti-ice item
  'Breakthrough', // neighbouring lasers round a field of ice: explosions put in order by refine
];

describe('Hex-a-Hop optimum: the sweep against a search of every state', () => {
  const catalog = loadLevelCatalog();
  for (const name of LEVELS) {
    it(`proves ${name}'s fewest moves as the search finds them`, async () => {
      const instance = instanceOfLevel(catalog.find((e) => e.name === name)!);
      const search = searchShortestWin(instance, 200_000);
      expect(search.capped).toBe(false);
      expect(search.plan).toBeDefined();
      const before = new Set(solversUnder(process.pid));
      const report = await solveParsed(hexahopGame, instance, { parallelism: 2 });
      // The horizons still running when the optimum was proven are cancelled and reaped.
      expect(solversUnder(process.pid).filter((pid) => !before.has(pid))).toEqual([]);
      expect(report.status).toBe('optimal');
      expect(report.verified).toBe(true);
      expect(report.horizon).toBe(search.plan!.length);
      expect(report.bounds).toEqual({ lower: search.plan!.length, upper: search.plan!.length });
    });
  }
});
