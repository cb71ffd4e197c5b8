import type { TowersInstance, TowersSolution } from './towers.model.js';

/** What the dashboard draws: the clues around the grid, the givens, and the heights once solved. */
export interface TowersRender {
  n: number;
  clues: { top: number[]; bottom: number[]; left: number[]; right: number[] };
  givens: [number, number, number][];
  grid?: number[][];
}

/** The board for drawing; `grid` only when solved. */
export function renderTowers(instance: TowersInstance, solution: TowersSolution | undefined): TowersRender {
  const { n, top, bottom, left, right, givens } = instance;
  return {
    n,
    clues: { top, bottom, left, right },
    givens,
    ...(solution === undefined ? {} : { grid: solution.grid }),
  };
}

/**
 * The board as text: the clues around the grid (blank where there is none) and the heights inside,
 * or the givens and dots when unsolved.
 */
export function towersText(view: TowersRender): string {
  const { n, clues, givens, grid } = view;
  const width = String(n).length;
  const clue = (c: number | undefined): string =>
    (c === undefined || c === 0 ? '' : String(c)).padStart(width);
  const given = (r: number, c: number): number => givens.find(([gr, gc]) => gr === r && gc === c)?.[2] ?? 0;
  const heights =
    grid ?? Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => given(r, c)));
  const line = (left: string, middle: string[], right: string): string =>
    [left, ...middle, right].join(' ').trimEnd();
  const lines = [
    line(clue(0), clues.top.map(clue), ''),
    ...heights.map((row, r) =>
      line(
        clue(clues.left[r]),
        row.map((h) => (h === 0 ? '.' : String(h)).padStart(width)),
        clue(clues.right[r]),
      ),
    ),
    line(clue(0), clues.bottom.map(clue), ''),
  ];
  // A side without clues leaves a blank line.
  return lines.filter((l, i) => (i > 0 && i < lines.length - 1) || l.trim() !== '').join('\n');
}

/** One line naming the puzzle: its size and how many heights are given. */
export function summarizeTowers(instance: TowersInstance): string {
  return `${instance.n}x${instance.n}, ${instance.givens.length} given`;
}
