import type { Verdict } from '../game-definition.js';
import {
  type SnakeInstance,
  SnakeGrid,
  SnakeSimulator,
  type SnakeSolution,
  startCells,
  startingAt,
} from './snake.model.js';

/**
 * Replays `solution.path` with the simulator, every rule checked step by step: it starts at the
 * head, stays within `horizon` steps, never leaves the grid or bites the body, and ends exactly
 * when the last apple is eaten (for `survive`: after exactly that many steps). The cost is the
 * number of steps. With `start: any`, path[0] may be any start cell (`startCells`).
 */
export function verifySnake(instance: SnakeInstance, solution: SnakeSolution, horizon: number): Verdict {
  const path: unknown = solution?.path;
  if (!Array.isArray(path) || path.length === 0) return { ok: false, reason: 'the path is empty' };
  const grid = SnakeGrid.of(instance);
  const cells: number[] = [];
  for (const [t, cell] of path.entries()) {
    if (!Array.isArray(cell) || !grid.contains(cell as number[])) {
      return {
        ok: false,
        reason: `path[${t}] is not a cell of the ${instance.width}x${instance.height} grid`,
      };
    }
    cells.push(grid.index(cell as [number, number]));
  }
  if (instance.start === 'any' && !startCells(instance, grid).includes(cells[0]!))
    return { ok: false, reason: 'path[0] is no start cell (a wall or an apple)' };
  const sim = new SnakeSimulator(
    instance.start === 'any' ? startingAt(instance, grid.cell(cells[0]!)) : instance,
    grid,
  );
  if (cells[0] !== sim.head) return { ok: false, reason: 'path[0] is not the head' };
  const steps = cells.length - 1;
  if (steps > horizon) return { ok: false, reason: `${steps} steps exceed the horizon ${horizon}` };
  for (let t = 1; t <= steps; t++) {
    if (sim.isDone())
      return { ok: false, reason: `the path goes on after the goal was reached at step ${t - 1}` };
    const outcome = sim.move(cells[t]!);
    if (!outcome.ok) return { ok: false, reason: `step ${t}: ${outcome.reason}` };
  }
  if (!sim.isDone()) {
    if (instance.survive !== undefined)
      return { ok: false, reason: `the walk has ${steps} steps, not ${instance.survive}` };
    const left =
      instance.order === 'given' ? instance.apples.length - sim.applesEaten : sim.presentCells().length;
    return left > 0
      ? { ok: false, reason: `${left} apple(s) left uneaten` }
      : { ok: false, reason: `${sim.pendingSpawn().length} spawn cell(s) never spawned` };
  }
  return { ok: true, cost: steps };
}
