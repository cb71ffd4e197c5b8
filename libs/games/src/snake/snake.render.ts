import { type Cell, type SnakeInstance, SnakeSimulator, type SnakeSolution } from './snake.model.js';

/** The board at one step of a plan. */
export interface SnakeFrame {
  t: number;
  head: Cell;
  /** Head first. */
  body: Cell[];
  /** The apples on the board at this step. */
  apples: Cell[];
  length: number;
  /** The index (into the instance's apples) of the apple eaten at this step, if any. */
  ate?: number;
}

/** What the dashboard draws: the grid and one frame per step (only the start without a plan). */
export interface SnakeRender {
  width: number;
  height: number;
  frames: SnakeFrame[];
}

/** Frames of the plan for an animation, replayed with the simulator (stops at an illegal step). */
export function renderSnake(instance: SnakeInstance, solution: SnakeSolution | undefined): SnakeRender {
  const sim = new SnakeSimulator(instance);
  const grid = sim.grid;
  const frame = (ate: number | undefined): SnakeFrame => ({
    t: sim.steps,
    head: grid.cell(sim.head),
    body: sim.body().map((c) => grid.cell(c)),
    apples: sim.presentApples().map((a) => instance.apples[a]!),
    length: sim.length,
    ...(ate === undefined ? {} : { ate }),
  });
  const frames = [frame(undefined)];
  for (const cell of solution?.path.slice(1) ?? []) {
    if (!grid.contains(cell)) break;
    const outcome = sim.move(grid.index(cell));
    if (!outcome.ok) break;
    frames.push(frame(outcome.ate));
  }
  return { width: instance.width, height: instance.height, frames };
}
