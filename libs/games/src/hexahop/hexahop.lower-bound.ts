import { cellIndex } from './hexahop.geometry.js';
import { type HexahopInstance, Tile } from './hexahop.model.js';
import { type HexahopMap, staticsOf } from './hexahop.statics.js';

/**
 * An admissible lower bound on the moves of a win: every move leaves exactly one cell, and each
 * green tile and green wall must be left once while green unless a laser may destroy it (or, on
 * levels with lasers, a spinner may move it); the first move leaves the start cell, which counts
 * only when it is such a green (and a blue start cell turns green, to be left once more). Builders
 * only add greens, spinners only move them. And the green needing the most moves bounds it too.
 */
export function hexahopLowerBound(instance: HexahopMap): number {
  const st = staticsOf(instance);
  const lasers = st.laserHit.size > 0;
  const fragile = (c: number): boolean => st.laserHit.has(c) || (lasers && st.spun.has(c));
  let greens = 0;
  for (let c = 0; c < instance.tiles.length; c++) {
    const t = instance.tiles[c];
    if ((t === Tile.Green || t === Tile.GreenWall) && !fragile(c)) greens++;
  }
  const s = cellIndex(instance.start[0], instance.start[1]);
  const start = instance.tiles[s];
  const startCounted = (start === Tile.Green || start === Tile.GreenWall) && !fragile(s);
  const startBlue = (start === Tile.Blue || start === Tile.BlueWall) && !fragile(s);
  const count = greens + (startCounted ? 0 : 1) + (startBlue ? 1 : 0);
  // Every green that no spinner moves must be left (stood on, then one more move) or shot (a
  // laser that reaches it landed on): the farthest such need, in over-approximate moves.
  let far = 0;
  for (let c = 0; c < instance.tiles.length; c++) {
    const t = instance.tiles[c];
    if ((t !== Tile.Green && t !== Tile.GreenWall) || st.spun.has(c)) continue;
    const shot = Math.min(...st.destroyers(c).map((L) => st.firstArrival(L)));
    far = Math.max(far, Math.min(st.firstArrival(c) + 1, shot));
  }
  return Math.max(1, count, Number.isFinite(far) ? far : 1);
}

/** The horizon cap when the user gives none: the level's par score (a score bounds the moves), else 4 LB + 20. */
export function hexahopDefaultMaxHorizon(instance: HexahopInstance): number {
  const lower = hexahopLowerBound(instance);
  return Math.max(lower, instance.par !== undefined && instance.par > 0 ? instance.par : 4 * lower + 20);
}
