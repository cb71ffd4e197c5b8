import { MAX_HORIZON } from '../game-definition.js';
import { InputError, unknownField } from '../input-error.js';
import {
  type AppleOrder,
  type Cell,
  SnakeGrid,
  type SnakeInstance,
  type SnakeSolution,
} from './snake.model.js';

/** The largest width or height accepted. */
export const SNAKE_MAX_SIDE = 200;

const FIELDS = new Set([
  'width',
  'height',
  'length',
  'body',
  'start',
  'apples',
  'order',
  'survive',
  'walls',
  'spawn',
  'tail',
]);

/**
 * Parses a Snake instance (docs/cli.md#instance-formats has the fields and their readings), the
 * JSON value or its text; `"survive": T` is a horizon, so at most {@link MAX_HORIZON}. Throws
 * `InputError` naming the field at fault.
 */
export function parseSnakeInstance(input: unknown): SnakeInstance {
  const raw = typeof input === 'string' ? parseJsonText(input) : input;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InputError('input', 'expected a JSON object');
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!FIELDS.has(key)) throw unknownField(key);
  }
  const width = integerField(obj, 'width', 1, SNAKE_MAX_SIDE);
  const height = integerField(obj, 'height', 1, SNAKE_MAX_SIDE);
  if (width === undefined) throw new InputError('width', 'required');
  if (height === undefined) throw new InputError('height', 'required');
  const grid = new SnakeGrid(width, height);

  const freeStart = obj.start === 'any';
  // A parsed `start: any` instance holds an empty body: printed, it reads back the same.
  const emptyBody = Array.isArray(obj.body) && obj.body.length === 0;
  if (obj.body !== undefined && obj.start !== undefined && !(freeStart && emptyBody)) {
    throw new InputError('start', 'give either start or body, not both');
  }
  if (typeof obj.start === 'string' && !freeStart)
    throw new InputError('start', `expected [x, y] or "any", got ${JSON.stringify(obj.start)}`);
  const body = freeStart
    ? []
    : obj.body !== undefined
      ? parseBody(obj.body, grid)
      : [parseCell(obj.start ?? [0, 0], 'start', grid)];

  const length = integerField(obj, 'length', 1, Number.MAX_SAFE_INTEGER) ?? Math.max(1, body.length);
  // A snake longer than the grid has cells never fits on it (generate refuses it too).
  if (length > grid.size)
    throw new InputError(
      'length',
      `must be at most ${grid.size}, the cells of the ${width}x${height} grid; got ${length}`,
    );
  if (length < body.length)
    throw new InputError('length', `${length} is shorter than the body (${body.length} cells)`);

  const order = obj.order ?? 'any';
  if (order !== 'any' && order !== 'given')
    throw new InputError('order', `expected "any" or "given", got ${JSON.stringify(order)}`);

  const apples = parseApples(obj.apples ?? [], grid, body, order);

  let spawn: Cell[] | undefined;
  if (obj.spawn !== undefined) {
    if (order !== 'any') throw new InputError('spawn', 'needs order "any"');
    // Chain cells may repeat and lie on apples or the body: an apple that appears where one is
    // adds nothing, and one under the body waits there (docs/games.md#snake).
    if (!Array.isArray(obj.spawn)) throw new InputError('spawn', 'expected an array of [x, y] cells');
    spawn = obj.spawn.map((v, i) => parseCell(v, `spawn[${i}]`, grid));
  }
  const walls = obj.walls === undefined ? undefined : parseWalls(obj.walls, grid, body, apples, spawn ?? []);

  const tail = obj.tail;
  if (tail !== undefined && tail !== 'follows' && tail !== 'strict')
    throw new InputError('tail', `expected "follows" or "strict", got ${JSON.stringify(tail)}`);

  const survive = integerField(obj, 'survive', 0, Number.MAX_SAFE_INTEGER);
  if (survive !== undefined && survive > MAX_HORIZON)
    throw new InputError('survive', `must be at most ${MAX_HORIZON}, the largest horizon; got ${survive}`);

  if (survive !== undefined && apples.length > 0)
    throw new InputError('survive', 'cannot be combined with apples');
  if (survive !== undefined && spawn !== undefined)
    throw new InputError('spawn', 'cannot be combined with survive');

  const instance: SnakeInstance = { width, height, length, body, apples, order };
  if (freeStart) instance.start = 'any';
  if (walls !== undefined) instance.walls = walls;
  if (spawn !== undefined) instance.spawn = spawn;
  if (tail !== undefined) instance.tail = tail;
  if (survive !== undefined) instance.survive = survive;
  return instance;
}

/**
 * Reads a plan a user gives for `instance` (`--plan`): the head's cells from step 0 on, as
 * `{ "path": [[x, y], ...] }` (a report's `solution`) or the list alone. Whether it is a legal walk
 * that eats every apple is the simulator's to say when the plan is verified.
 */
export function parseSnakePlan(input: unknown, instance: SnakeInstance): SnakeSolution {
  const grid = new SnakeGrid(instance.width, instance.height);
  const object = typeof input === 'object' && input !== null && !Array.isArray(input);
  const field = object ? 'plan.path' : 'plan';
  const path: unknown = object ? (input as Record<string, unknown>).path : input;
  if (object && path === undefined) throw new InputError(field, 'missing');
  if (!Array.isArray(path) || path.length === 0) {
    throw new InputError(field, "expected the head's cells from step 0 on, as a list of [x, y]");
  }
  return { path: path.map((cell, i) => parseCell(cell, `${field}[${i}]`, grid)) };
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError('input', 'not valid JSON');
  }
}

function integerField(
  obj: Record<string, unknown>,
  field: string,
  min: number,
  max: number,
): number | undefined {
  const value = obj[field];
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value))
    throw new InputError(field, 'expected an integer');
  if (value < min) throw new InputError(field, `must be at least ${min}`);
  if (value > max) throw new InputError(field, `must be at most ${max}`);
  return value;
}

function parseCell(value: unknown, field: string, grid: SnakeGrid): Cell {
  if (
    !Array.isArray(value) ||
    value.length !== 2 ||
    !value.every((v): v is number => typeof v === 'number' && Number.isInteger(v))
  ) {
    throw new InputError(field, 'expected [x, y] with integer coordinates');
  }
  if (!grid.contains(value)) throw new InputError(field, `outside the ${grid.width}x${grid.height} grid`);
  return [value[0]!, value[1]!];
}

function parseCellList(value: unknown, field: string, grid: SnakeGrid): Cell[] {
  if (!Array.isArray(value)) throw new InputError(field, 'expected an array of [x, y] cells');
  const cells = value.map((v, i) => parseCell(v, `${field}[${i}]`, grid));
  const seen = new Map<number, number>();
  cells.forEach((c, i) => {
    const first = seen.get(grid.index(c));
    if (first !== undefined) throw new InputError(`${field}[${i}]`, `same cell as ${field}[${first}]`);
    seen.set(grid.index(c), i);
  });
  return cells;
}

function parseBody(value: unknown, grid: SnakeGrid): Cell[] {
  const body = parseCellList(value, 'body', grid);
  if (body.length === 0) throw new InputError('body', 'needs at least the head');
  for (let i = 1; i < body.length; i++) {
    if (!grid.areNeighbours(grid.index(body[i - 1]!), grid.index(body[i]!))) {
      throw new InputError('body', `not a connected path: body[${i}] is not next to body[${i - 1}]`);
    }
  }
  return body;
}

function parseWalls(value: unknown, grid: SnakeGrid, body: Cell[], apples: Cell[], spawn: Cell[]): Cell[] {
  const walls = parseCellList(value, 'walls', grid);
  const mark = (cells: Cell[]): Set<number> => new Set(cells.map((c) => grid.index(c)));
  const [onBody, onApple, onSpawn] = [mark(body), mark(apples), mark(spawn)];
  walls.forEach((c, i) => {
    const cell = grid.index(c);
    if (onApple.has(cell)) throw new InputError(`walls[${i}]`, 'holds an apple');
    if (onBody.has(cell)) throw new InputError(`walls[${i}]`, "on the snake's body");
    if (onSpawn.has(cell)) throw new InputError(`walls[${i}]`, 'on a spawn cell');
  });
  return walls;
}

function parseApples(value: unknown, grid: SnakeGrid, body: Cell[], order: AppleOrder): Cell[] {
  const apples = parseCellList(value, 'apples', grid);
  const onBody = new Set(body.map((c) => grid.index(c)));
  const present = order === 'any' ? apples.length : Math.min(1, apples.length);
  for (let i = 0; i < present; i++) {
    if (onBody.has(grid.index(apples[i]!))) throw new InputError(`apples[${i}]`, "on the snake's body");
  }
  return apples;
}
