import { cellIndex } from './hexahop.geometry.js';
import { type HexahopInstance, Tile } from './hexahop.model.js';

/**
 * An admissible lower bound on the moves of a win, for the supported tiles: every move leaves
 * exactly one cell, and each green tile and green wall must be left once while green; the first
 * move leaves the start cell, which counts only when it is green (and a blue start cell turns
 * green, to be left once more).
 */
export function hexahopLowerBound(instance: Pick<HexahopInstance, 'tiles' | 'start'>): number {
  let greens = 0;
  for (const t of instance.tiles) if (t === Tile.Green || t === Tile.GreenWall) greens++;
  const start = instance.tiles[cellIndex(instance.start[0], instance.start[1])];
  const startGreen = start === Tile.Green || start === Tile.GreenWall;
  const startBlue = start === Tile.Blue || start === Tile.BlueWall;
  return greens + (startGreen ? 0 : 1) + (startBlue ? 1 : 0);
}

/** The horizon cap when the user gives none: the level's par score (a score bounds the moves), else 4 LB + 20. */
export function hexahopDefaultMaxHorizon(instance: HexahopInstance): number {
  const lower = hexahopLowerBound(instance);
  return Math.max(lower, instance.par !== undefined && instance.par > 0 ? instance.par : 4 * lower + 20);
}
