import { InputError, unknownField } from '../input-error.js';
import type { SinglesInstance } from './singles.model.js';

/** The largest width or height accepted: a game ID writes numbers as one character, 1..9 then a..z. */
export const SINGLES_MAX_SIDE = 35;

const JSON_FIELDS = new Set(['grid', 'width', 'height']);

/**
 * Parses a Singles puzzle, as Simon Tatham's game ID (`WxH[dD]:CELLS` or `N:CELLS`) or as JSON,
 * value or text (docs/cli.md#instance-formats has both). Only the game ID bounds the numbers by the
 * grid's size. Throws `InputError` naming the field at fault.
 */
export function parseSinglesInstance(input: unknown): SinglesInstance {
  if (typeof input === 'string') {
    const text = input.trim();
    if (text.startsWith('{')) return parseSinglesJson(parseJsonText(text));
    return parseSinglesId(text);
  }
  return parseSinglesJson(input);
}

/** Parses Tatham's game ID (see {@link parseSinglesInstance}); errors name the field `id`. */
export function parseSinglesId(id: string): SinglesInstance {
  const match = /^(\d+)(?:x(\d+))?(?:d[a-z])?:(.*)$/.exec(id.trim());
  if (match === null) throw new InputError('id', `expected 'WxH:cells', got '${abbreviate(id)}'`);
  const width = Number(match[1]);
  const height = match[2] === undefined ? width : Number(match[2]);
  for (const [name, side] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (side < 1 || side > SINGLES_MAX_SIDE)
      throw new InputError('id', `${name} ${side} is not in 1..${SINGLES_MAX_SIDE}`);
  }
  const cells = match[3]!;
  if (cells.length !== width * height) {
    throw new InputError(
      'id',
      `cell count ${cells.length} does not match ${width}*${height}=${width * height}`,
    );
  }
  const max = Math.max(width, height);
  const grid: number[][] = [];
  for (let r = 0; r < height; r++) {
    const row: number[] = [];
    for (let c = 0; c < width; c++) {
      const ch = cells[r * width + c]!;
      const value = /^[1-9]$/.test(ch) ? Number(ch) : /^[a-z]$/.test(ch) ? ch.charCodeAt(0) - 87 : 0;
      if (value === 0)
        throw new InputError('id', `cell ${r * width + c + 1} '${ch}' is not a number 1..9 or a..z`);
      if (value > max) {
        throw new InputError(
          'id',
          `cell ${r * width + c + 1} '${ch}' is ${value}, more than max(${width}, ${height})=${max}`,
        );
      }
      row.push(value);
    }
    grid.push(row);
  }
  return { width, height, grid };
}

/** Parses the JSON form (see {@link parseSinglesInstance}). */
export function parseSinglesJson(raw: unknown): SinglesInstance {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InputError('input', 'expected a Tatham game ID or a JSON object');
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!JSON_FIELDS.has(key)) throw unknownField(key);
  }
  const rows = obj.grid;
  if (rows === undefined) throw new InputError('grid', 'required');
  if (!Array.isArray(rows) || rows.length === 0)
    throw new InputError('grid', 'expected a non-empty array of rows');
  if (rows.length > SINGLES_MAX_SIDE)
    throw new InputError('grid', `has ${rows.length} rows, more than ${SINGLES_MAX_SIDE}`);
  const width = Array.isArray(rows[0]) ? rows[0].length : 0;
  if (width === 0) throw new InputError('grid[0]', 'expected a non-empty array of numbers');
  if (width > SINGLES_MAX_SIDE)
    throw new InputError('grid[0]', `has ${width} cells, more than ${SINGLES_MAX_SIDE}`);
  const grid = rows.map((row: unknown, r) => {
    if (!Array.isArray(row)) throw new InputError(`grid[${r}]`, 'expected an array of numbers');
    if (row.length !== width)
      throw new InputError(`grid[${r}]`, `has ${row.length} cells, expected ${width} as in row 0`);
    return row.map((value: unknown, c) => {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
        throw new InputError(`grid[${r}][${c}]`, `expected a positive integer, got ${JSON.stringify(value)}`);
      }
      return value;
    });
  });
  // The sizes are redundant with the grid, but a client that gives them means them.
  for (const [field, size] of [
    ['width', width],
    ['height', grid.length],
  ] as const) {
    const given = obj[field];
    if (given !== undefined && given !== size) {
      throw new InputError(field, `is ${JSON.stringify(given)}, but the grid's is ${size}`);
    }
  }
  return { width, height: grid.length, grid };
}

/**
 * Tatham's game ID of a puzzle, as `sgt-singles` prints it; RangeError when a number cannot be
 * written in it (above max(W, H) or 35).
 */
export function formatSinglesId(instance: SinglesInstance): string {
  const max = Math.max(instance.width, instance.height);
  const cells = instance.grid.flatMap((row) =>
    row.map((value) => {
      if (value > max || value > SINGLES_MAX_SIDE)
        throw new RangeError(`number ${value} has no game ID character here`);
      return value < 10 ? String(value) : String.fromCharCode(87 + value);
    }),
  );
  return `${instance.width}x${instance.height}:${cells.join('')}`;
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError('input', 'not valid JSON');
  }
}

function abbreviate(text: string): string {
  return text.length > 40 ? `${text.slice(0, 37)}...` : text;
}
