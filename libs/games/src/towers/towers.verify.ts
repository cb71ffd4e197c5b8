import type { Verdict } from '../game-definition.js';
import {
  clueLineCells,
  TOWERS_SIDES,
  type TowersInstance,
  type TowersSolution,
  visibleCount,
} from './towers.model.js';

/**
 * Checks a filled grid against every rule, independently of the encoding: an n x n grid of
 * heights 1..n, each height once per row and column, the givens in place, every clue's count.
 */
export function verifyTowers(instance: TowersInstance, solution: TowersSolution): Verdict {
  const { n } = instance;
  const { grid } = solution;
  if (!Array.isArray(grid) || grid.length !== n) return { ok: false, reason: `expected ${n} rows` };
  for (let r = 0; r < n; r++) {
    const row = grid[r];
    if (!Array.isArray(row) || row.length !== n)
      return { ok: false, reason: `row ${r} does not have ${n} cells` };
    for (let c = 0; c < n; c++) {
      const h = row[c]!;
      if (!Number.isInteger(h) || h < 1 || h > n)
        return { ok: false, reason: `cell (${r}, ${c}) holds ${h}, not 1..${n}` };
    }
  }
  for (let i = 0; i < n; i++) {
    const rowSet = new Set(grid[i]);
    const colSet = new Set(grid.map((row) => row[i]));
    if (rowSet.size !== n) return { ok: false, reason: `row ${i} repeats a height` };
    if (colSet.size !== n) return { ok: false, reason: `column ${i} repeats a height` };
  }
  for (const [r, c, h] of instance.givens) {
    if (grid[r]![c] !== h) return { ok: false, reason: `cell (${r}, ${c}) must be the given ${h}` };
  }
  for (const side of TOWERS_SIDES) {
    for (let i = 0; i < n; i++) {
      const clue = instance[side][i]!;
      if (clue === 0) continue;
      const seen = visibleCount(clueLineCells(n, side, i).map(([r, c]) => grid[r]![c]!));
      if (seen !== clue)
        return { ok: false, reason: `${side} clue ${i} is ${clue} but ${seen} towers are seen` };
    }
  }
  return { ok: true };
}
