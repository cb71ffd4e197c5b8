import { cellIndex, cellX, cellY, MAP_SIZE } from './hexahop.geometry.js';
import { Tile } from './hexahop.model.js';

/**
 * One character per tile id, for maps written by hand and for drawings: row y holds the cells
 * (x, y) for x = 0, 1, ... in axial coordinates (N is one row up, SE one column right).
 */
export const TILE_CHARS: Readonly<Record<number, string>> = {
  [Tile.Water]: '.',
  [Tile.Normal]: 'o',
  [Tile.Green]: 'g',
  [Tile.GreenWall]: 'G',
  [Tile.Trampoline]: 'T',
  [Tile.Spinner]: 'S',
  [Tile.Stone]: '#',
  [Tile.Blue]: 'b',
  [Tile.BlueWall]: 'B',
  [Tile.Laser]: 'L',
  [Tile.Ice]: 'I',
  [Tile.DeIced]: 'i',
  [Tile.Builder]: 'U',
  [Tile.Switch]: 'W',
  [Tile.Boat]: 'P',
  [Tile.LiftDown]: 'l',
  [Tile.LiftUp]: 'H',
};

const TILE_OF_CHAR = new Map(Object.entries(TILE_CHARS).map(([id, ch]) => [ch, Number(id)]));

/** The tile id written as `ch`, or undefined. */
export function tileOfChar(ch: string): number | undefined {
  return TILE_OF_CHAR.get(ch);
}

/** The smallest box holding every non-water cell and `also` (the player). */
export function occupiedBounds(
  tiles: ArrayLike<number>,
  also: number[] = [],
): { xmin: number; xmax: number; ymin: number; ymax: number } {
  let xmin = MAP_SIZE;
  let ymin = MAP_SIZE;
  let xmax = -1;
  let ymax = -1;
  const take = (c: number): void => {
    xmin = Math.min(xmin, cellX(c));
    xmax = Math.max(xmax, cellX(c));
    ymin = Math.min(ymin, cellY(c));
    ymax = Math.max(ymax, cellY(c));
  };
  for (let c = 0; c < tiles.length; c++) if (tiles[c] !== Tile.Water) take(c);
  for (const c of also) take(c);
  if (xmax < 0) return { xmin: 0, xmax: 0, ymin: 0, ymax: 0 };
  return { xmin, xmax, ymin, ymax };
}

/** The rows of the map inside `bounds`, one character per tile. */
export function mapRows(
  tiles: ArrayLike<number>,
  bounds: { xmin: number; xmax: number; ymin: number; ymax: number },
): string[] {
  const rows: string[] = [];
  for (let y = bounds.ymin; y <= bounds.ymax; y++) {
    let row = '';
    for (let x = bounds.xmin; x <= bounds.xmax; x++) row += TILE_CHARS[tiles[cellIndex(x, y)]!] ?? '?';
    rows.push(row);
  }
  return rows;
}
