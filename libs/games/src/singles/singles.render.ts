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

/** The board as text: the numbers, with the shaded cells as `#`. */
export function singlesText(view: SinglesRender): string {
  const width = Math.max(...view.grid.flat().map((v) => String(v).length));
  const black = new Set((view.black ?? []).map(([r, c]) => `${r},${c}`));
  return view.grid
    .map((row, r) => row.map((v, c) => (black.has(`${r},${c}`) ? '#' : String(v)).padStart(width)).join(' '))
    .join('\n');
}

/** One line naming the puzzle: its size. */
export function summarizeSingles(instance: SinglesInstance): string {
  return `${instance.width}x${instance.height}`;
}
