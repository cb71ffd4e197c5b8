import { InputError } from '@satfarm/games';

import { VerificationError } from './horizon-solver.js';

/** An error of a horizon's run as it crosses from a thread: its kind and what rebuilds it. */
export type SerializedRunError =
  | { kind: 'verification'; game: string; horizon: number; reason: string }
  | { kind: 'input'; field: string; reason: string }
  | { kind: 'other'; name: string; message: string };

/**
 * The error as a plain object. Callers tell a wrong answer or bad input (final) from a failure a
 * retry may fix by the error's class, which structured cloning does not keep.
 */
export function serializeRunError(err: unknown): SerializedRunError {
  if (err instanceof VerificationError)
    return { kind: 'verification', game: err.game, horizon: err.horizon, reason: err.reason };
  if (err instanceof InputError) return { kind: 'input', field: err.field, reason: err.reason };
  if (err instanceof Error) return { kind: 'other', name: err.name, message: err.message };
  return { kind: 'other', name: 'Error', message: String(err) };
}

/** The error `serializeRunError` describes, of the same class. */
export function deserializeRunError(error: SerializedRunError): Error {
  switch (error.kind) {
    case 'verification':
      return new VerificationError(error.game, error.horizon, error.reason);
    case 'input':
      return new InputError(error.field, error.reason);
    case 'other': {
      const rebuilt = new Error(error.message);
      rebuilt.name = error.name;
      return rebuilt;
    }
  }
}
