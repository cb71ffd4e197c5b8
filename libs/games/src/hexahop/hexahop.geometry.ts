/**
 * Hex-a-Hop's board: a 30 x 30 map in axial coordinates (x, y). Direction d moves by
 * `DIRECTION_STEPS[d]`: N (0,-1), NE (+1,-1), SE (+1,0), S (0,+1), SW (-1,+1), NW (-1,0); every
 * cell outside the map is water.
 */

/** The side of the game's map. */
export const MAP_SIZE = 30;

/** The six directions, in the game's order (0 = N, clockwise). */
export const DIRECTION_NAMES = ['N', 'NE', 'SE', 'S', 'SW', 'NW'] as const;
export type DirectionName = (typeof DIRECTION_NAMES)[number];
/** A direction 0..5 (index into DIRECTION_NAMES). */
export type Direction = 0 | 1 | 2 | 3 | 4 | 5;

/** A move: a direction name, or `J` (jump in place, using a jump item). */
export type MoveName = DirectionName | 'J';
export const MOVE_NAMES: readonly MoveName[] = [...DIRECTION_NAMES, 'J'];

/** The (dx, dy) of each direction. */
export const DIRECTION_STEPS: readonly (readonly [number, number])[] = [
  [0, -1],
  [1, -1],
  [1, 0],
  [0, 1],
  [-1, 1],
  [-1, 0],
];

export const DIRECTIONS: readonly Direction[] = [0, 1, 2, 3, 4, 5];

/** Cells of the map as indices `x * MAP_SIZE + y`; -1 stands for any cell off the map. */
export const OFF_MAP = -1;

export function cellIndex(x: number, y: number): number {
  if (x < 0 || y < 0 || x >= MAP_SIZE || y >= MAP_SIZE) return OFF_MAP;
  return x * MAP_SIZE + y;
}

export function cellX(cell: number): number {
  return Math.floor(cell / MAP_SIZE);
}

export function cellY(cell: number): number {
  return cell % MAP_SIZE;
}

/** The cell `k` steps from `cell` in direction `d` (OFF_MAP when it leaves the map). */
export function stepFrom(cell: number, d: Direction, k = 1): number {
  if (cell === OFF_MAP) return OFF_MAP;
  const [dx, dy] = DIRECTION_STEPS[d]!;
  return cellIndex(cellX(cell) + k * dx, cellY(cell) + k * dy);
}

/** Hex distance between two cells in axial coordinates. */
export function hexDistance(a: number, b: number): number {
  const dx = cellX(b) - cellX(a);
  const dy = cellY(b) - cellY(a);
  return Math.max(Math.abs(dx), Math.abs(dy), Math.abs(dx + dy));
}

/** The direction called `name`, or undefined. */
export function directionByName(name: string): Direction | undefined {
  const d = (DIRECTION_NAMES as readonly string[]).indexOf(name);
  return d < 0 ? undefined : (d as Direction);
}
