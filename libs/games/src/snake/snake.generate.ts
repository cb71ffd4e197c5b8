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
  /** Number of walls, even: each cut of the tour makes two (default 0). */
  walls?: number;
}

/**
 * A random instance that has a solution, the same one for the same options. The body and the
 * apples lie on a closed tour of the grid (a Hamiltonian cycle; on an odd-by-odd grid the tour
 * leaves one corner out), turned by a random symmetry of the grid: a snake that follows the tour
 * never reaches its own tail while it is at most as long as the tour, and eats every apple in
 * any order within one lap (given order: one lap per apple). That plan is replayed with the
 * simulator before the instance is returned. Apples are distinct, uniformly drawn among the
 * tour's cells off the body; spawn cells among the tour's cells off the apples (the body's
 * too), which the snake following the tour meets within a lap of their appearing. Walls are
 * cut from the tour two at a time before the rest is drawn (see {@link cutWalls}). Throws
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
  const wallCount = options.walls ?? 0;
  if (!Number.isInteger(wallCount) || wallCount < 0 || wallCount % 2 !== 0)
    throw new InputError('walls', 'must be an even integer from 0 (walls are cut from the tour in pairs)');
  const grid = new SnakeGrid(width, height);
  const rng = xoroshiro128plus(seed);
  const fullTour = symmetric(grid, closedTour(width, height), rng);
  if (length > fullTour.length)
    throw new InputError('length', `at most ${fullTour.length} on a ${width}x${height} grid`);
  const fullRoom = fullTour.length - length;
  if (!Number.isInteger(count) || count < 0 || count > fullRoom) {
    throw new InputError(
      'apples',
      `must be an integer from 0 to ${fullRoom} on a ${width}x${height} grid with length ${length}`,
    );
  }
  // The snake grows by one for each cell of the chain too.
  if (count + spawnCount > fullRoom) {
    throw new InputError(
      'spawn',
      `apples and spawn cells at most ${fullRoom} together on a ${width}x${height} grid with length ${length}`,
    );
  }
  if (wallCount > fullRoom - count - spawnCount) {
    throw new InputError(
      'walls',
      `at most ${fullRoom - count - spawnCount} on a ${width}x${height} grid with length ${length}, ` +
        `${count} apples and ${spawnCount} spawn cells (the tour keeps a cell for each)`,
    );
  }
  let tour = fullTour;
  let walls: number[] = [];
  if (wallCount > 0) ({ tour, walls } = cutWalls(grid, fullTour, wallCount, rng));

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
  if (walls.length > 0) instance.walls = walls.map((c) => grid.cell(c));
  if (spawnCount > 0) {
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

/** How many times {@link cutWalls} starts over from the whole tour when its cuts run out. */
export const WALL_CUT_TRIES = 16;

/**
 * Shortens a closed tour by `count` cells (even), which become walls: wherever the tour runs
 * a→b→c→d with a and d grid neighbours, dropping b and c leaves a closed tour a→d through the
 * rest. Each cut is drawn uniformly among the places the current tour allows one. The cuts can
 * run out first (a tour around a hole has no such place): it starts over, and after
 * {@link WALL_CUT_TRIES} tries throws `InputError` naming `walls`.
 */
export function cutWalls(
  grid: SnakeGrid,
  tour: number[],
  count: number,
  rng: RandomGenerator,
): { tour: number[]; walls: number[] } {
  let best = 0;
  for (let t = 0; t < WALL_CUT_TRIES; t++) {
    const cut = tryCutWalls(grid, tour, count, rng);
    if (typeof cut !== 'number') return cut;
    best = Math.max(best, cut);
  }
  throw new InputError(
    'walls',
    `the tour of the ${grid.width}x${grid.height} grid could be cut to ${best} walls at most ` +
      `with this seed (${WALL_CUT_TRIES} tries), not ${count}`,
  );
}

/** One try of {@link cutWalls}: the shortened tour and its walls, or how many walls it reached. */
function tryCutWalls(
  grid: SnakeGrid,
  tour: number[],
  count: number,
  rng: RandomGenerator,
): { tour: number[]; walls: number[] } | number {
  const next = new Int32Array(grid.size).fill(-1);
  const prev = new Int32Array(grid.size).fill(-1);
  tour.forEach((c, i) => {
    next[c] = tour[(i + 1) % tour.length]!;
    prev[c] = tour[(i + tour.length - 1) % tour.length]!;
  });
  // The cells b where a cut may start, as a list with each one's place in it (-1: none).
  const cuts: number[] = [];
  const place = new Int32Array(grid.size).fill(-1);
  const drop = (b: number): void => {
    if (place[b] === -1) return;
    const last = cuts.pop()!;
    if (last !== b) {
      cuts[place[b]!] = last;
      place[last] = place[b]!;
    }
    place[b] = -1;
  };
  const update = (b: number): void => {
    if (!grid.areNeighbours(prev[b]!, next[next[b]!]!)) drop(b);
    else if (place[b] === -1) {
      place[b] = cuts.length;
      cuts.push(b);
    }
  };
  if (tour.length >= 4) tour.forEach(update);
  let size = tour.length;
  const walls: number[] = [];
  while (walls.length < count) {
    if (size < 4 || cuts.length === 0) return walls.length;
    const b = cuts[unsafeUniformIntDistribution(0, cuts.length - 1, rng)]!;
    const a = prev[b]!;
    const c = next[b]!;
    const d = next[c]!;
    drop(b);
    drop(c);
    next[a] = d;
    prev[d] = a;
    size -= 2;
    walls.push(b, c);
    // Only the windows through the new link a→d change: those starting at prev(a), a and d.
    if (size >= 4) for (const x of [prev[a]!, a, d]) update(x);
  }
  const walled = new Set(walls);
  const first = tour.find((c) => !walled.has(c))!;
  const shortened = [first];
  for (let c = next[first]!; c !== first; c = next[c]!) shortened.push(c);
  return { tour: shortened, walls: walls.sort((x, y) => x - y) };
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
