import { InputError, unknownField } from '../input-error.js';
import { completedRun, type TicTacToeMark, type TicTacToeInstance } from './tictactoe.model.js';

/** The largest board side accepted. */
export const TICTACTOE_MAX_SIZE = 50;

const FIELDS = new Set(['board', 'player', 'k']);

/**
 * Parses a position (docs/cli.md#instance-formats):
 * `{"board": ["X.O", ".X.", "O.."], "player": "X", "k": 3}`. `board` is n rows of n characters,
 * `X`, `O` or `.` (letters in either case); `k` (1..n) defaults to n; `player` defaults to whoever
 * is to move when X starts (X when both have as many marks, O when X has one more). A board where
 * someone already has k in a row is rejected: the game is over. The JSON may also come as text.
 * Throws `InputError` naming the field at fault.
 */
export function parseTicTacToeInstance(input: unknown): TicTacToeInstance {
  const raw = typeof input === 'string' ? parseJsonText(input) : input;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw new InputError('input', 'expected a JSON object');
  const obj = raw as Record<string, unknown>;
  for (const key of Object.keys(obj)) {
    if (!FIELDS.has(key)) throw unknownField(key);
  }
  const board = parseBoard(obj.board);
  const n = board.length;
  const k = obj.k === undefined ? n : obj.k;
  if (typeof k !== 'number' || !Number.isInteger(k) || k < 1 || k > n) {
    throw new InputError('k', `expected an integer in 1..${n}, got ${JSON.stringify(k)}`);
  }
  const player = parsePlayer(obj.player, board);
  for (const mark of ['X', 'O'] as const) {
    const won = completedRun(board, k, mark);
    if (won !== undefined) {
      const [r, c] = won[0]!;
      throw new InputError('board', `${mark} already has ${k} in a row from (${r}, ${c}): the game is over`);
    }
  }
  return { n, k, player, board };
}

function parseBoard(value: unknown): string[] {
  if (value === undefined) throw new InputError('board', 'required');
  if (!Array.isArray(value) || value.length === 0)
    throw new InputError('board', 'expected a non-empty array of rows');
  const n = value.length;
  if (n > TICTACTOE_MAX_SIZE) throw new InputError('board', `has ${n} rows, more than ${TICTACTOE_MAX_SIZE}`);
  return value.map((row: unknown, r) => {
    if (typeof row !== 'string') throw new InputError(`board[${r}]`, 'expected a string of X, O and .');
    if (row.length !== n)
      throw new InputError(`board[${r}]`, `has ${row.length} cells; a ${n}-row board needs ${n}`);
    const upper = row.toUpperCase();
    const bad = /[^XO.]/.exec(upper);
    if (bad !== null)
      throw new InputError(
        `board[${r}]`,
        `unexpected '${row[bad.index]}' at column ${bad.index}: use X, O or .`,
      );
    return upper;
  });
}

function parsePlayer(value: unknown, board: string[]): TicTacToeMark {
  if (value !== undefined) {
    if (typeof value !== 'string' || !['X', 'O'].includes(value.toUpperCase())) {
      throw new InputError('player', `expected "X" or "O", got ${JSON.stringify(value)}`);
    }
    return value.toUpperCase() as TicTacToeMark;
  }
  const count = (mark: TicTacToeMark): number =>
    board.reduce((sum, row) => sum + row.split(mark).length - 1, 0);
  const x = count('X');
  const o = count('O');
  if (x === o) return 'X';
  if (x === o + 1) return 'O';
  throw new InputError('player', `required: ${x} X and ${o} O do not say who is to move`);
}

function parseJsonText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new InputError('input', 'not valid JSON');
  }
}
