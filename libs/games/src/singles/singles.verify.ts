import type { Verdict } from '../game-definition.js';
import { type SinglesInstance, type SinglesSolution, whiteRegions } from './singles.model.js';

/**
 * Checks a shading against every rule, independently of the encoding: cells inside the grid and
 * listed once, no number twice among the white cells of a row or column, no two black cells
 * sharing an edge, and one edge-connected white region.
 */
export function verifySingles(instance: SinglesInstance, solution: SinglesSolution): Verdict {
  const { width, height, grid } = instance;
  if (!Array.isArray(solution.black)) return { ok: false, reason: 'black is not a list of cells' };
  const isBlack = new Array<boolean>(width * height).fill(false);
  for (const cell of solution.black) {
    const [r, c] = Array.isArray(cell) ? cell : [];
    if (!Number.isInteger(r) || !Number.isInteger(c) || r! < 0 || r! >= height || c! < 0 || c! >= width) {
      return {
        ok: false,
        reason: `black cell ${JSON.stringify(cell)} is outside the ${width}x${height} grid`,
      };
    }
    if (isBlack[r! * width + c!]) return { ok: false, reason: `black cell (${r}, ${c}) is listed twice` };
    isBlack[r! * width + c!] = true;
  }
  for (let r = 0; r < height; r++) {
    const seen = new Map<number, number>();
    for (let c = 0; c < width; c++) {
      if (isBlack[r * width + c]) continue;
      const v = grid[r]![c]!;
      if (seen.has(v))
        return { ok: false, reason: `row ${r} has ${v} white at columns ${seen.get(v)} and ${c}` };
      seen.set(v, c);
    }
  }
  for (let c = 0; c < width; c++) {
    const seen = new Map<number, number>();
    for (let r = 0; r < height; r++) {
      if (isBlack[r * width + c]) continue;
      const v = grid[r]![c]!;
      if (seen.has(v))
        return { ok: false, reason: `column ${c} has ${v} white at rows ${seen.get(v)} and ${r}` };
      seen.set(v, r);
    }
  }
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      if (!isBlack[r * width + c]) continue;
      if (c + 1 < width && isBlack[r * width + c + 1])
        return { ok: false, reason: `black cells (${r}, ${c}) and (${r}, ${c + 1}) touch` };
      if (r + 1 < height && isBlack[(r + 1) * width + c])
        return { ok: false, reason: `black cells (${r}, ${c}) and (${r + 1}, ${c}) touch` };
    }
  }
  const regions = whiteRegions(width, height, isBlack).length;
  if (regions > 1) return { ok: false, reason: `the white cells form ${regions} separate regions` };
  return { ok: true };
}
