import { cellIndex, cellX, cellY, MAP_SIZE } from './hexahop.geometry.js';
import { Tile, TILE_NAMES } from './hexahop.model.js';

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

/**
 * The rows of `mapRows` as a terminal can show hexes: column x two characters right of column
 * x - 1 and half a line lower (SE is (+1, 0) in axial coordinates), so that a tile's six
 * neighbours sit around it: N and S two lines up and down, the other four one line up or down and
 * one column aside. Water is blank; `@` marks `player` (a cell inside `bounds`).
 */
export function hexMapLines(
  rows: readonly string[],
  bounds: { xmin: number; ymin: number },
  player: readonly [number, number],
): string[] {
  const width = rows[0]?.length ?? 0;
  // Tile (x, y) goes on line 2y + x, counted from the box's top-left cell.
  const lines: string[][] = Array.from({ length: 2 * rows.length + width - 1 }, () => []);
  for (let dy = 0; dy < rows.length; dy++) {
    for (let dx = 0; dx < width; dx++) {
      const isPlayer = player[0] === bounds.xmin + dx && player[1] === bounds.ymin + dy;
      const ch = isPlayer ? '@' : rows[dy]![dx]!;
      if (ch !== TILE_CHARS[Tile.Water]) lines[2 * dy + dx]![2 * dx] = ch;
    }
  }
  const text = lines.map((cells) => Array.from(cells, (ch) => ch ?? ' ').join(''));
  // The box's corners may hold only water: no blank lines above or below the level.
  const first = text.findIndex((line) => line !== '');
  const last = text.findLastIndex((line) => line !== '');
  return first < 0 ? [] : text.slice(first, last + 1);
}

/**
 * What each character of a `hexMapLines` drawing stands for, in the order first drawn; `under` is
 * the character of the tile the player stands on, which `@` hides.
 */
export function hexMapLegend(lines: readonly string[], under?: string): string {
  const name = (ch: string): string => TILE_NAMES[tileOfChar(ch) ?? -1] ?? 'unknown';
  const seen = [...new Set(lines.join('').replace(/ /g, ''))];
  return seen
    .map((ch) =>
      ch !== '@' ? `${ch} ${name(ch)}` : `@ the player${under === undefined ? '' : ` (on ${name(under)})`}`,
    )
    .join(', ');
}
