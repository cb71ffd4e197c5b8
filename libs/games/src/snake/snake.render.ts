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

/** Grids up to this many cells a side are drawn in the text view; larger ones only listed. */
const TEXT_GRID_MAX_SIDE = 40;

/**
 * The plan as text: the start board (`H` the head, `o` the body, `@` the apples, `.` empty; y from
 * 0 at the top) when it is small enough to read, then the steps as `U D L R` and what they ate.
 */
export function snakeText(view: SnakeRender): string {
  const lines: string[] = [];
  const start = view.frames[0]!;
  if (view.width <= TEXT_GRID_MAX_SIDE && view.height <= TEXT_GRID_MAX_SIDE) {
    const board = Array.from({ length: view.height }, () => Array<string>(view.width).fill('.'));
    for (const [x, y] of start.apples) board[y]![x] = '@';
    for (const [x, y] of start.body) board[y]![x] = 'o';
    board[start.head[1]]![start.head[0]] = 'H';
    lines.push(...board.map((row) => row.join(' ')));
  }
  const steps = view.frames.slice(1).map((f, i) => {
    const [[x0, y0], [x1, y1]] = [view.frames[i]!.head, f.head];
    return x1 > x0 ? 'R' : x1 < x0 ? 'L' : y1 > y0 ? 'D' : 'U';
  });
  const eaten = view.frames.filter((f) => f.ate !== undefined).length;
  const last = view.frames[view.frames.length - 1]!;
  lines.push(`steps (${steps.length}): ${steps.join(' ')}`);
  lines.push(`${eaten} apple${eaten === 1 ? '' : 's'} eaten; length ${last.length} at the end`);
  return lines.join('\n');
}

/** One line naming the board: its size, the snake's length and the apples or steps to survive. */
export function summarizeSnake(instance: SnakeInstance): string {
  const goal =
    instance.survive === undefined
      ? `${instance.apples.length} apple${instance.apples.length === 1 ? '' : 's'}${instance.order === 'given' ? ' in order' : ''}`
      : `survive ${instance.survive}`;
  return `${instance.width}x${instance.height}, length ${instance.length}, ${goal}`;
}
