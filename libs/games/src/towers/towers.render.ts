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
