import type { HorizonSplit } from '../game-definition.js';
import { splitByMoves } from '../split-by-moves.js';
import { type Cell, type SnakeInstance, SnakeSimulator, type SnakeSolution } from './snake.model.js';

/**
 * An apple hunt's horizon split by its first `depth` steps (`GameDefinition.split`): each distinct
 * state (the body, its length, the apples left) is one cube at the fewest steps that reach it,
 * as an instance with that body and those apples. With `order: given`, an apple that comes next
 * while it lies under the body starts no instance (the parser refuses one), so that state goes a
 * step deeper. `survive` asks for a walk of exactly its length, not "within", and is not split.
 */
export function splitSnake(
  instance: SnakeInstance,
  depth: number,
  horizon: number,
): HorizonSplit<SnakeInstance, SnakeSolution> | undefined {
  if (instance.survive !== undefined) return undefined;
  const start = new SnakeSimulator(instance);
  const { grid } = start;
  const split = splitByMoves<SnakeSimulator, number, SnakeInstance>(
    {
      start,
      successors: function* (sim) {
        for (const cell of sim.legalMoves()) {
          const child = sim.clone();
          child.move(cell);
          yield [cell, child] as const;
        }
      },
      key: (sim) => sim.key(),
      reached: (sim) => sim.isDone(),
      instanceOf: (sim) => {
        const body = sim.body();
        const apples =
          instance.order === 'given'
            ? instance.apples.slice(sim.applesEaten)
            : sim.presentApples().map((a) => instance.apples[a]!);
        const next = instance.order === 'given' ? apples.slice(0, 1) : apples;
        if (next.some((apple) => body.includes(grid.index(apple)))) return undefined;
        return { ...instance, length: sim.length, body: body.map((c) => grid.cell(c)), apples };
      },
    },
    depth,
    horizon,
  );
  if (split === undefined) return undefined;
  const path = (cells: readonly number[]): SnakeSolution => ({
    path: [instance.body[0]!, ...cells.map((c): Cell => grid.cell(c))],
  });
  return {
    cubes: split.cubes.map((cube) => ({
      prefix: path(cube.moves),
      depth: cube.moves.length,
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
