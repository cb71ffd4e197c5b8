import { InputError, unknownField } from '../input-error.js';
import { TOWERS_SIDES, type TowersGiven, type TowersInstance } from './towers.model.js';

/** The largest grid accepted (Tatham's game stops at 9; the encoding does not need to). */
export const TOWERS_MAX_SIZE = 50;

const FIELDS = new Set(['n', 'top', 'bottom', 'left', 'right', 'givens']);

/**
 * Parses a Towers puzzle, as Simon Tatham's game ID (`N[dD]:C/C/.../C[,GIVENS]`) or as JSON, value
 * or text (docs/cli.md#instance-formats has both grammars). Throws `InputError` naming the field
 * at fault.
 */
export function parseTowersInstance(input: unknown): TowersInstance {
  if (typeof input === 'string') {
    const text = input.trim();
    if (text.startsWith('{')) return parseTowersJson(parseJsonText(text));
    return parseTowersId(text);
  }
  return parseTowersJson(input);
}

/** Parses Tatham's game ID (see {@link parseTowersInstance}); errors name the field `id`. */
export function parseTowersId(id: string): TowersInstance {
  const match = /^(\d+)(?:d[a-z])?:([^,]*)(?:,(.*))?$/.exec(id.trim());
  if (match === null) throw new InputError('id', `expected 'N:clues[,givens]', got '${abbreviate(id)}'`);
  const n = Number(match[1]);
  if (n < 1 || n > TOWERS_MAX_SIZE)
    throw new InputError('id', `grid size ${n} is not in 1..${TOWERS_MAX_SIZE}`);
  const fields = match[2]!.split('/');
  if (fields.length !== 4 * n) {
    throw new InputError('id', `clue count ${fields.length} does not match 4*${n}=${4 * n}`);
  }
  const clues = fields.map((field, i) => {
    if (field === '') return 0;
    if (!/^\d+$/.test(field)) throw new InputError('id', `clue ${i + 1} '${field}' is not a number`);
    const clue = Number(field);
    if (clue < 1 || clue > n) throw new InputError('id', `clue ${i + 1} is ${clue}, not in 1..${n}`);
    return clue;
  });
  const [top, bottom, left, right] = TOWERS_SIDES.map((_, s) => clues.slice(s * n, (s + 1) * n));
  const givens = match[3] === undefined ? [] : parseGivenRuns(match[3], n);
  return { n, top: top!, bottom: bottom!, left: left!, right: right!, givens };
}

function parseGivenRuns(text: string, n: number): TowersGiven[] {
  const givens: TowersGiven[] = [];
  let cell = 0;
  let i = 0;
  while (i < text.length) {
    const ch = text[i]!;
    if (ch >= 'a' && ch <= 'z') {
      cell += ch.charCodeAt(0) - 96;
      i++;
    } else if (ch === '_') {
      i++;
    } else if (ch >= '0' && ch <= '9') {
      let j = i;
      while (j < text.length && text[j]! >= '0' && text[j]! <= '9') j++;
      const height = Number(text.slice(i, j));
      if (height < 1 || height > n) throw new InputError('id', `given height ${height} is not in 1..${n}`);
      if (cell < n * n) givens.push([Math.floor(cell / n), cell % n, height]);
      cell++;
      i = j;
    } else {
      throw new InputError('id', `unexpected '${ch}' in the given digits`);
    }
    if (cell > n * n) throw new InputError('id', `the given digits cover more than ${n}*${n}=${n * n} cells`);
  }
  if (cell < n * n)
    throw new InputError('id', `the given digits cover ${cell} cells, not ${n}*${n}=${n * n}`);
  return givens;
}

/** Parses the JSON form (see {@link parseTowersInstance}). */
export function parseTowersJson(raw: unknown): TowersInstance {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new InputError('input', 'expected a Tatham game ID or a JSON object');
  }
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!FIELDS.has(key)) throw unknownField(key);
  }
  const n = obj.n;
  if (n === undefined) throw new InputError('n', 'required');
  if (typeof n !== 'number' || !Number.isInteger(n)) throw new InputError('n', 'expected an integer');
  if (n < 1 || n > TOWERS_MAX_SIZE) throw new InputError('n', `must be in 1..${TOWERS_MAX_SIZE}, got ${n}`);
  const [top, bottom, left, right] = TOWERS_SIDES.map((side) => parseClueList(obj[side], side, n));
  const givens = parseGivenList(obj.givens, n);
  return { n, top: top!, bottom: bottom!, left: left!, right: right!, givens };
}

function parseClueList(value: unknown, field: string, n: number): number[] {
  if (value === undefined) return new Array<number>(n).fill(0);
  if (!Array.isArray(value)) throw new InputError(field, 'expected an array of clues');
  if (value.length !== n) throw new InputError(field, `has ${value.length} clues, expected n=${n}`);
  return value.map((clue: unknown, i) => {
    if (typeof clue !== 'number' || !Number.isInteger(clue) || clue < 0 || clue > n) {
      throw new InputError(
        `${field}[${i}]`,
        `expected an integer in 0..${n} (0 = no clue), got ${JSON.stringify(clue)}`,
      );
    }
    return clue;
  });
}

function parseGivenList(value: unknown, n: number): TowersGiven[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new InputError('givens', 'expected an array of [row, col, height]');
  const seen = new Map<number, number>();
  return value.map((given: unknown, i): TowersGiven => {
    const field = `givens[${i}]`;
    if (
      !Array.isArray(given) ||
      given.length !== 3 ||
      !given.every((x) => typeof x === 'number' && Number.isInteger(x))
    ) {
      throw new InputError(field, 'expected [row, col, height] integers');
    }
    const [r, c, h] = given as number[];
    if (r! < 0 || r! >= n || c! < 0 || c! >= n)
      throw new InputError(field, `cell (${r}, ${c}) is outside the ${n}x${n} grid`);
    if (h! < 1 || h! > n) throw new InputError(field, `height ${h} is not in 1..${n}`);
    const previous = seen.get(r! * n + c!);
    if (previous !== undefined && previous !== h) {
      throw new InputError(field, `cell (${r}, ${c}) is given twice, as ${previous} and ${h}`);
    }
    seen.set(r! * n + c!, h!);
    return [r!, c!, h!];
  });
}

/** Tatham's game ID of a puzzle, as `sgt-towers` prints it (clues, then givens after a comma). */
export function formatTowersId(instance: TowersInstance): string {
  const { n } = instance;
  const clues = TOWERS_SIDES.flatMap((side) =>
    instance[side].map((clue) => (clue === 0 ? '' : String(clue))),
  );
  let out = `${n}:${clues.join('/')}`;
  if (instance.givens.length === 0) return out;
  const heights = new Array<number>(n * n).fill(0);
  for (const [r, c, h] of instance.givens) heights[r * n + c] = h;
  let givens = '';
  let run = 0;
  let afterNumber = false;
  for (const h of heights) {
    if (h === 0) {
      run++;
      continue;
    }
    givens += skipLetters(run);
    if (run === 0 && afterNumber) givens += '_';
    givens += String(h);
    run = 0;
    afterNumber = true;
  }
  givens += skipLetters(run);
  out += `,${givens}`;
  return out;
}

function skipLetters(run: number): string {
  let out = '';
  for (let left = run; left > 0; left -= 26) out += String.fromCharCode(96 + Math.min(left, 26));
  return out;
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
