/** A cell given in the puzzle: row, column (0-based) and tower height (1..n). */
export type TowersGiven = [row: number, col: number, height: number];

/** The four sides clues are read from, in the order of a Tatham game ID. */
export const TOWERS_SIDES = ['top', 'bottom', 'left', 'right'] as const;
export type TowersSide = (typeof TOWERS_SIDES)[number];

/**
 * A Towers (Skyscrapers) puzzle: an n x n grid to fill with heights 1..n, each once per row and
 * column. `top[c]` and `bottom[c]` are seen looking down column c from above and from below,
 * `left[r]` and `right[r]` looking along row r; 0 means no clue. A clue counts the towers seen,
 * a tower hiding every shorter one behind it.
 */
export interface TowersInstance {
  n: number;
  top: number[];
  bottom: number[];
  left: number[];
  right: number[];
  givens: TowersGiven[];
}

/** The filled grid, `grid[r][c]` the height at row r, column c. */
export interface TowersSolution {
  grid: number[][];
}

/** The clues of a grid on every side, keyed by side. */
export type TowersClues = Record<TowersSide, number[]>;

/** The cells of one clue's line as the viewer meets them, nearest first: `[row, col]` pairs. */
export function clueLineCells(n: number, side: TowersSide, index: number): [number, number][] {
  const cells: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    switch (side) {
      case 'top':
        cells.push([i, index]);
        break;
      case 'bottom':
        cells.push([n - 1 - i, index]);
        break;
      case 'left':
        cells.push([index, i]);
        break;
      case 'right':
        cells.push([index, n - 1 - i]);
        break;
    }
  }
  return cells;
}

/** How many towers a viewer sees along `heights` (nearest first): those taller than all before. */
export function visibleCount(heights: readonly number[]): number {
  let tallest = 0;
  let seen = 0;
  for (const h of heights) {
    if (h > tallest) {
      seen++;
      tallest = h;
    }
  }
  return seen;
}

/** Every clue of a filled grid (no side left blank). */
export function towersCluesOf(grid: readonly (readonly number[])[]): TowersClues {
  const n = grid.length;
  const clues = { top: [], bottom: [], left: [], right: [] } as TowersClues;
  for (const side of TOWERS_SIDES) {
    for (let i = 0; i < n; i++) {
      clues[side].push(visibleCount(clueLineCells(n, side, i).map(([r, c]) => grid[r]![c]!)));
    }
  }
  return clues;
}
