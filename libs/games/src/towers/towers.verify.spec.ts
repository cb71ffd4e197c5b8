import { describe, expect, it } from 'vitest';

import { towersCluesOf, visibleCount } from './towers.model.js';
import { verifyTowers } from './towers.verify.js';

const GRID = [
  [1, 2, 3],
  [2, 3, 1],
  [3, 1, 2],
];
const instance = { n: 3, ...towersCluesOf(GRID), givens: [[1, 1, 3]] as [number, number, number][] };

describe(verifyTowers.name, () => {
  it('accepts a grid that meets every clue and given', () => {
    expect(verifyTowers(instance, { grid: GRID })).toEqual({ ok: true });
  });

  it.each([
    ['a missing row', [GRID[0], GRID[1]], /3 rows/],
    ['a height out of range', [[1, 2, 4], GRID[1], GRID[2]], /not 1\.\.3/],
    ['a repeat in a row', [[1, 1, 3], GRID[1], GRID[2]], /row 0 repeats/],
    ['a repeat in a column', [GRID[0], GRID[0], GRID[2]], /row|column/],
    ['a wrong given', [GRID[1], GRID[2], GRID[0]], /given 3/],
  ])('rejects %s', (_what, grid, reason) => {
    const verdict = verifyTowers(instance, { grid: grid as number[][] });
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('rejects a Latin square that breaks a clue', () => {
    const other = [
      [3, 1, 2],
      [2, 3, 1],
      [1, 2, 3],
    ];
    const verdict = verifyTowers({ ...instance, givens: [] }, { grid: other });
    expect(verdict).toMatchObject({ ok: false, reason: expect.stringMatching(/towers are seen/) as unknown });
  });
});

describe(visibleCount.name, () => {
  it('counts the towers taller than every tower before them', () => {
    expect(visibleCount([1, 2, 3, 4])).toBe(4);
    expect(visibleCount([4, 1, 2, 3])).toBe(1);
    expect(visibleCount([2, 1, 4, 3])).toBe(2);
  });
});
