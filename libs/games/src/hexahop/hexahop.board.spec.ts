import { describe, expect, it } from 'vitest';

import { type ChainBranch, type ChainOracle, chainBranches } from './hexahop.board.js';
import { cellIndex } from './hexahop.geometry.js';
import { Tile } from './hexahop.model.js';

const SE = 2;

/**
 * Three-valued answers over a row of `length` cells along SE from (0, 0), each of which may be
 * normal, a trampoline or stone (raised); every other cell is water.
 */
function rowOracle(length: number, enterOnce: boolean): ChainOracle<boolean | 'unknown'> {
  const row = new Set(Array.from({ length }, (_, i) => cellIndex(i, 0)));
  const kinds = (c: number): number[] =>
    row.has(c) ? [Tile.Normal, Tile.Trampoline, Tile.Stone] : [Tile.Water];
  return {
    kinds,
    is: (c, k) => (kinds(c).length === 1 ? kinds(c)[0] === k : 'unknown'),
    raised: (c) => (row.has(c) ? 'unknown' : false),
    water: (c) => !row.has(c),
    antiIce: () => false,
    not: (x) => (x === 'unknown' ? x : !x),
    never: (x) => x === false,
    always: (x) => x === true,
    enterOnce,
  };
}

const ends = (branches: ChainBranch<unknown>[]): (number | 'death')[] =>
  [...new Set(branches.map((b) => b.end))].sort((a, b) => String(a).localeCompare(String(b)));
const landed = (branches: ChainBranch<unknown>[]): number[] =>
  [...new Set(branches.flatMap((b) => b.path))].sort((a, b) => a - b);

describe(chainBranches.name, () => {
  it('with enterOnce, finds the same ends and landed cells as every branch, entering each cell once', () => {
    const all = chainBranches(cellIndex(0, 0), SE, false, rowOracle(12, false));
    const once = chainBranches(cellIndex(0, 0), SE, false, rowOracle(12, true));
    expect(ends(once)).toEqual(ends(all));
    expect(landed(once)).toEqual(landed(all));
    // Every branch forks at each possible trampoline: the full tree grows like the Fibonacci numbers.
    expect(all.length).toBeGreaterThan(200);
    // Entered once, a cell ends at most one branch per tile it may hold (or one drowning).
    expect(once.length).toBeLessThanOrEqual(3 * landed(once).length);
  });

  it('with enterOnce, follows a long row of possible trampolines to its end', () => {
    const once = chainBranches(cellIndex(0, 0), SE, false, rowOracle(28, true));
    expect(ends(once)).toContain(cellIndex(27, 0));
    expect(ends(once)).toContain('death');
  });
});
