import { type RandomGenerator, unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import { InputError } from '../input-error.js';
import {
  type AppleOrder,
  type Cell,
  SnakeGrid,
  type SnakeInstance,
  SnakeSimulator,
  startingAt,
  type TailRule,
} from './snake.model.js';
import { SNAKE_MAX_SIDE } from './snake.parse.js';
import { verifySnake } from './snake.verify.js';

/** What `satfarm generate snake` asks for. */
export interface SnakeGenerateOptions {
  width: number;
  height: number;
  apples: number;
  seed: number;
  /** Default `any`. */
  order?: AppleOrder;
  /** The snake's length at the start, laid out as its body (default 3). */
  length?: number;
  /** Cells of a spawn chain (order `any`), drawn on the tour off the apples (default 0). */
  spawn?: number;
  /** Default: no `tail` field (the rule `follows`). */
  tail?: TailRule;
  /** `any`: the instance lets the plan choose its start (its head alone, growing to `length`). */
  start?: 'any';
}

/**
 * A random instance that has a solution, the same one for the same options. The body and the
 * apples lie on a closed tour of the grid (a Hamiltonian cycle; on an odd-by-odd grid the tour
 * leaves one corner out), turned by a random symmetry of the grid: a snake that follows the tour
 * never reaches its own tail while it is at most as long as the tour, and eats every apple in
 * any order within one lap (given order: one lap per apple). That plan is replayed with the
 * simulator before the instance is returned. Apples are distinct, uniformly drawn among the
 * tour's cells off the body; spawn cells among the tour's cells off the apples (the body's
 * too), which the snake following the tour meets within a lap of their appearing. Throws
 * `InputError` (naming the option) when they do not fit.
 */
export function generateSnake(options: SnakeGenerateOptions): SnakeInstance {
  const { width, height, apples: count, seed } = options;
  const length = options.length ?? 3;
  const order = options.order ?? 'any';
  for (const [field, value] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(value) || value < 2 || value > SNAKE_MAX_SIDE) {
      throw new InputError(field, `must be an integer from 2 to ${SNAKE_MAX_SIDE}`);
    }
  }
  if (!Number.isInteger(seed)) throw new InputError('seed', 'must be an integer');
  if (order !== 'any' && order !== 'given') throw new InputError('order', 'expected "any" or "given"');
  if (!Number.isInteger(length) || length < 1) throw new InputError('length', 'must be a positive integer');
  const spawnCount = options.spawn ?? 0;
  if (!Number.isInteger(spawnCount) || spawnCount < 0)
    throw new InputError('spawn', 'must be an integer from 0');
  if (spawnCount > 0 && order !== 'any') throw new InputError('spawn', 'needs order "any"');
  if (options.tail !== undefined && options.tail !== 'follows' && options.tail !== 'strict')
    throw new InputError('tail', 'expected "follows" or "strict"');
  if (options.start !== undefined && options.start !== 'any') throw new InputError('start', 'expected "any"');
  const grid = new SnakeGrid(width, height);
  const rng = xoroshiro128plus(seed);
  const tour = symmetric(grid, closedTour(width, height), rng);
  if (length > tour.length)
    throw new InputError('length', `at most ${tour.length} on a ${width}x${height} grid`);
  const room = tour.length - length;
  if (!Number.isInteger(count) || count < 0 || count > room) {
    throw new InputError(
      'apples',
      `must be an integer from 0 to ${room} on a ${width}x${height} grid with length ${length}`,
    );
  }

  const start = unsafeUniformIntDistribution(0, tour.length - 1, rng);
  const at = (i: number): number => tour[(((start - i) % tour.length) + tour.length) % tour.length]!;
  const body = Array.from({ length }, (_, i) => at(i));
  const free = tour.filter((c) => !body.includes(c));
  for (let i = 0; i < count; i++) {
    const j = unsafeUniformIntDistribution(i, free.length - 1, rng);
    [free[i], free[j]] = [free[j]!, free[i]!];
  }
  const instance: SnakeInstance = {
    width,
    height,
    length,
    body: body.map((c) => grid.cell(c)),
    apples: free.slice(0, count).map((c) => grid.cell(c)),
    order,
  };
  if (spawnCount > 0) {
    // The snake grows by one for each cell of the chain too.
    if (count + spawnCount > room) {
      throw new InputError(
        'spawn',
        `apples and spawn cells at most ${room} together on a ${width}x${height} grid with length ${length}`,
      );
    }
    const cells = tour.filter((c) => !free.slice(0, count).includes(c));
    for (let i = 0; i < spawnCount; i++) {
      const j = unsafeUniformIntDistribution(i, cells.length - 1, rng);
      [cells[i], cells[j]] = [cells[j]!, cells[i]!];
    }
    instance.spawn = cells.slice(0, spawnCount).map((c) => grid.cell(c));
  }
  if (options.tail !== undefined) instance.tail = options.tail;
  if (options.start === 'any') {
    instance.start = 'any';
    instance.body = [];
  }
  assertTourPlan(instance, tour, start);
  return instance;
}

/**
 * A closed tour of the grid as cell numbers, each next to the following one and the last next to
 * the first: every cell when the width or the height is even, every cell but the corner
 * (0, height-1) when both are odd.
 */
export function closedTour(width: number, height: number): number[] {
  if (height % 2 === 1 && width % 2 === 0) {
    return closedTour(height, width).map((c) => (c % height) * width + Math.floor(c / height));
  }
  const rows = height % 2 === 0 ? height : height - 1;
  const cells: Cell[] = [];
  for (let x = 0; x < width; x++) cells.push([x, 0]);
  for (let y = 1; y < rows; y++) {
    const leftward = y % 2 === 1;
    for (let i = 1; i < width; i++) {
      const x = leftward ? width - i : i;
      // The last row of an odd-by-odd grid is taken in by detours below the row above it.
      const detour = rows < height && y === rows - 1 && x % 2 === 1;
      if (detour) cells.push([x + 1, y + 1], [x, y + 1]);
      cells.push([x, y]);
    }
  }
  for (let y = rows - 1; y >= 1; y--) cells.push([0, y]);
  return cells.map(([x, y]) => y * width + x);
}

function symmetric(grid: SnakeGrid, tour: number[], rng: RandomGenerator): number[] {
  const flipX = unsafeUniformIntDistribution(0, 1, rng) === 1;
  const flipY = unsafeUniformIntDistribution(0, 1, rng) === 1;
  const swap = grid.width === grid.height && unsafeUniformIntDistribution(0, 1, rng) === 1;
  return tour.map((c) => {
    let [x, y] = grid.cell(c);
    if (flipX) x = grid.width - 1 - x;
    if (flipY) y = grid.height - 1 - y;
    if (swap) [x, y] = [y, x];
    return grid.index([x, y]);
  });
}

function assertTourPlan(instance: SnakeInstance, tour: number[], start: number): void {
  const grid = SnakeGrid.of(instance);
  const sim = new SnakeSimulator(
    instance.start === 'any' ? startingAt(instance, grid.cell(tour[start]!)) : instance,
    grid,
  );
  const path = [sim.head];
  const laps = instance.apples.length + (instance.spawn?.length ?? 0) + 1;
  for (let step = 1; !sim.isDone(); step++) {
    const next = tour[(start + step) % tour.length]!;
    if (!sim.move(next).ok || step > tour.length * laps) {
      throw new Error(`generated snake instance has no tour plan (step ${step})`);
    }
    path.push(next);
  }
  const verdict = verifySnake(instance, { path: path.map((c) => sim.grid.cell(c)) }, path.length - 1);
  if (!verdict.ok) throw new Error(`generated snake instance fails its own plan: ${verdict.reason}`);
}
