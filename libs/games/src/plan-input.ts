import { InputError } from './input-error.js';

/** The move names of a plan a user gives, and the plan object they came in, if any. */
export interface PlanMoves {
  moves: string[];
  /** The object the moves came in (`{ moves, ... }`), for a game's other fields. */
  object?: Record<string, unknown>;
}

/**
 * Reads the moves of a plan a user gives (`--plan`): a list of move names, the same as one string
 * separated by spaces, or an object with `moves` in either form (the `solution` of an earlier
 * report). Errors name the field under `plan`; whether each name is a move is the game's to say.
 */
export function planMoves(input: unknown): PlanMoves {
  if (typeof input === 'string' || Array.isArray(input)) return { moves: moveList(input, 'plan') };
  if (typeof input !== 'object' || input === null) {
    throw new InputError(
      'plan',
      'expected moves: a list of move names, a string of them, or { "moves": ... }',
    );
  }
  const object = input as Record<string, unknown>;
  if (object.moves === undefined) throw new InputError('plan.moves', 'missing');
  return { moves: moveList(object.moves, 'plan.moves'), object };
}

/** The moves of a text, separated by white space (`R U2 F'`, `N NE J`). */
export function splitMoves(text: string): string[] {
  const trimmed = text.trim();
  return trimmed === '' ? [] : trimmed.split(/\s+/);
}

function moveList(value: unknown, field: string): string[] {
  if (typeof value === 'string') return splitMoves(value);
  if (!Array.isArray(value)) throw new InputError(field, 'expected a list of move names or a string of them');
  return value.map((name, i) => {
    if (typeof name !== 'string') throw new InputError(`${field}[${i}]`, 'expected a move name (a string)');
    return name;
  });
}
