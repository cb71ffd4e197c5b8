import {
  type Cell,
  SnakeGrid,
  type SnakeInstance,
  SnakeSimulator,
  type SnakeSolution,
  startCells,
  startingAt,
} from './snake.model.js';

/** The board at one step of a plan. */
export interface SnakeFrame {
  t: number;
  /** Undefined only for `start: any` without a plan: no snake on the board yet. */
  head?: Cell;
  /** Head first. */
  body: Cell[];
  /** The apples on the board at this step, spawned ones included. */
  apples: Cell[];
  length: number;
  /**
   * What put the apple eaten at this step there, if one was eaten: its index into the instance's
   * apples, or the apples' count plus its index into the spawn chain.
   */
  ate?: number;
  /** With a spawn chain: its cells still to appear, next first. */
  spawn?: Cell[];
}

/** What the dashboard draws: the grid and one frame per step (only the start without a plan). */
export interface SnakeRender {
  width: number;
  height: number;
  /** The walls, when the instance has any. */
  walls?: Cell[];
  frames: SnakeFrame[];
}

/** Frames of the plan for an animation, replayed with the simulator (stops at an illegal step). */
export function renderSnake(instance: SnakeInstance, solution: SnakeSolution | undefined): SnakeRender {
  const grid = SnakeGrid.of(instance);
  const walls = instance.walls !== undefined && instance.walls.length > 0 ? { walls: instance.walls } : {};
  let start = instance;
  if (instance.start === 'any') {
    // The plan's first cell is the start; without one (or a wrong one) the board has no snake yet.
    const first = solution?.path[0];
    if (
      first === undefined ||
      !grid.contains(first) ||
      !startCells(instance, grid).includes(grid.index(first))
    ) {
      const apples = instance.order === 'given' ? instance.apples.slice(0, 1) : instance.apples;
      const spawn = instance.spawn !== undefined ? { spawn: instance.spawn } : {};
      const frames = [{ t: 0, body: [], apples, length: instance.length, ...spawn }];
      return { width: instance.width, height: instance.height, ...walls, frames };
    }
    start = startingAt(instance, first);
  }
  const sim = new SnakeSimulator(start, grid);
  const frame = (ate: number | undefined): SnakeFrame => ({
    t: sim.steps,
    head: grid.cell(sim.head),
    body: sim.body().map((c) => grid.cell(c)),
    apples: sim.presentCells().map((c) => grid.cell(c)),
    length: sim.length,
    ...(ate === undefined ? {} : { ate }),
    ...(instance.spawn === undefined ? {} : { spawn: sim.pendingSpawn().map((c) => grid.cell(c)) }),
  });
  const frames = [frame(undefined)];
  for (const cell of solution?.path.slice(1) ?? []) {
    if (!grid.contains(cell)) break;
    const outcome = sim.move(grid.index(cell));
    if (!outcome.ok) break;
    frames.push(frame(outcome.ate));
  }
  return { width: instance.width, height: instance.height, ...walls, frames };
}

/** Grids up to this many cells a side are drawn in the text view; larger ones only listed. */
const TEXT_GRID_MAX_SIDE = 40;

/**
 * The plan as text: the start board (`H` the head, `o` the body, `@` the apples, `#` the walls,
 * `+` the spawn chain's cells still to appear, `.` empty; y from 0 at the top) when it is small
 * enough to read, then the steps as `U D L R` and what they ate.
 */
export function snakeText(view: SnakeRender): string {
  const lines: string[] = [];
  const start = view.frames[0]!;
  if (view.width <= TEXT_GRID_MAX_SIDE && view.height <= TEXT_GRID_MAX_SIDE) {
    const board = Array.from({ length: view.height }, () => Array<string>(view.width).fill('.'));
    for (const [x, y] of view.walls ?? []) board[y]![x] = '#';
    for (const [x, y] of start.spawn ?? []) board[y]![x] = '+';
    for (const [x, y] of start.apples) board[y]![x] = '@';
    for (const [x, y] of start.body) board[y]![x] = 'o';
    if (start.head !== undefined) board[start.head[1]]![start.head[0]] = 'H';
    lines.push(...board.map((row) => row.join(' ')));
  }
  const steps = view.frames.slice(1).map((f, i) => {
    const [[x0, y0], [x1, y1]] = [view.frames[i]!.head!, f.head!];
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
  const extras = [
    instance.start === 'any' ? 'start any' : '',
    instance.walls?.length ? `${instance.walls.length} wall${instance.walls.length === 1 ? '' : 's'}` : '',
    instance.spawn?.length ? `spawn ${instance.spawn.length}` : '',
    instance.tail === 'strict' ? 'strict tail' : '',
  ].filter((e) => e !== '');
  return [`${instance.width}x${instance.height}, length ${instance.length}, ${goal}`, ...extras].join(', ');
}
