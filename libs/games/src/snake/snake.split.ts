import type { HorizonSplit } from '../game-definition.js';
import { splitByMoves } from '../split-by-moves.js';
import {
  type Cell,
  SnakeGrid,
  type SnakeInstance,
  SnakeSimulator,
  type SnakeSolution,
  startStates,
} from './snake.model.js';

/** Before the start cell is chosen (`start: any`): its moves place the head. */
const UNPLACED = 'unplaced';

/**
 * An apple hunt's horizon split by its first `depth` steps (`GameDefinition.split`): each distinct
 * state (the body, its length, the apples left) is one cube at the fewest steps that reach it,
 * as an instance with that body and those apples. With `order: given`, an apple that comes next
 * while it lies under the body starts no instance (the parser refuses one), so that state goes a
 * step deeper, and so does a state with an apple (spawned) under the body. With `start: any`,
 * the start cell is one more first move (a cube's prefix starts with it). `survive` asks for a
 * walk of exactly its length, not "within", and is not split.
 */
export function splitSnake(
  instance: SnakeInstance,
  depth: number,
  horizon: number,
): HorizonSplit<SnakeInstance, SnakeSolution> | undefined {
  if (instance.survive !== undefined) return undefined;
  const grid = SnakeGrid.of(instance);
  const free = instance.start === 'any';
  const start: SnakeSimulator | typeof UNPLACED = free ? UNPLACED : new SnakeSimulator(instance, grid);
  const split = splitByMoves<SnakeSimulator | typeof UNPLACED, number, SnakeInstance>(
    {
      start,
      successors: function* (sim) {
        if (sim === UNPLACED) {
          for (const child of startStates(instance, grid)) yield [child.head, child] as const;
          return;
        }
        for (const cell of sim.legalMoves()) {
          const child = sim.clone();
          child.move(cell);
          yield [cell, child] as const;
        }
      },
      key: (sim) => (sim === UNPLACED ? UNPLACED : sim.key()),
      reached: (sim) => sim !== UNPLACED && sim.isDone(),
      instanceOf: (sim) => {
        if (sim === UNPLACED) return undefined;
        const body = sim.body();
        const apples =
          instance.order === 'given'
            ? instance.apples.slice(sim.applesEaten)
            : sim.presentCells().map((c) => grid.cell(c));
        const next = instance.order === 'given' ? apples.slice(0, 1) : apples;
        if (next.some((apple) => body.includes(grid.index(apple)))) return undefined;
        const { start: _free, ...fixed } = instance;
        const cube: SnakeInstance = {
          ...fixed,
          length: sim.length,
          body: body.map((c) => grid.cell(c)),
          apples,
        };
        if (instance.spawn !== undefined) cube.spawn = sim.pendingSpawn().map((c) => grid.cell(c));
        return cube;
      },
    },
    free ? depth + 1 : depth,
    free ? horizon + 1 : horizon,
  );
  if (split === undefined) return undefined;
  const path = (cells: readonly number[]): SnakeSolution => ({
    path: [...(free ? [] : [instance.body[0]!]), ...cells.map((c): Cell => grid.cell(c))],
  });
  return {
    cubes: split.cubes.map((cube) => ({
      prefix: path(cube.moves),
      depth: cube.moves.length - (free ? 1 : 0),
      instance: cube.instance,
    })),
    ...(split.plan === undefined ? {} : { plan: path(split.plan) }),
  };
}

/** A cube's prefix and a path from its head as one path (the head's cell once). */
export function joinSnakePlan(
  _instance: SnakeInstance,
  prefix: SnakeSolution,
  rest: SnakeSolution,
): SnakeSolution {
  return { path: [...prefix.path, ...rest.path.slice(1)] };
}
