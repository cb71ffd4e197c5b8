import type { SinglesCell, SinglesInstance, SinglesSolution } from './singles.model.js';

/** What the dashboard draws: the numbers, and the shaded cells once solved. */
export interface SinglesRender {
  width: number;
  height: number;
  grid: number[][];
  black?: SinglesCell[];
}

/** The board for drawing; `black` only when solved. */
export function renderSingles(
  instance: SinglesInstance,
  solution: SinglesSolution | undefined,
): SinglesRender {
  const { width, height, grid } = instance;
  return { width, height, grid, ...(solution === undefined ? {} : { black: solution.black }) };
}
