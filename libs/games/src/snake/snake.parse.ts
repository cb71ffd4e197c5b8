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

const FIELDS = new Set(['width', 'height', 'length', 'body', 'start', 'apples', 'order', 'survive']);

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

  if (obj.body !== undefined && obj.start !== undefined) {
    throw new InputError('start', 'give either start or body, not both');
  }
  const body =
    obj.body !== undefined ? parseBody(obj.body, grid) : [parseCell(obj.start ?? [0, 0], 'start', grid)];

  const length = integerField(obj, 'length', 1, Number.MAX_SAFE_INTEGER) ?? body.length;
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

  const survive = integerField(obj, 'survive', 0, Number.MAX_SAFE_INTEGER);
  if (survive !== undefined && survive > MAX_HORIZON)
    throw new InputError('survive', `must be at most ${MAX_HORIZON}, the largest horizon; got ${survive}`);

  if (survive !== undefined && apples.length > 0)
    throw new InputError('survive', 'cannot be combined with apples');

  const instance: SnakeInstance = { width, height, length, body, apples, order };
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

function parseApples(value: unknown, grid: SnakeGrid, body: Cell[], order: AppleOrder): Cell[] {
  const apples = parseCellList(value, 'apples', grid);
  const onBody = new Set(body.map((c) => grid.index(c)));
  const present = order === 'any' ? apples.length : Math.min(1, apples.length);
  for (let i = 0; i < present; i++) {
    if (onBody.has(grid.index(apples[i]!))) throw new InputError(`apples[${i}]`, "on the snake's body");
  }
  return apples;
}
