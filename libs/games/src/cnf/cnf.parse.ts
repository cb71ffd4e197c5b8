import { DimacsSyntaxError, parseDimacs } from '@satfarm/cnf';

import { InputError } from '../input-error.js';
import type { CnfInstance } from './cnf.model.js';

/** Parses DIMACS text (or `{ "dimacs": "..." }`); every syntax error names its line. */
export function parseCnfInstance(input: unknown): CnfInstance {
  const text =
    typeof input === 'string'
      ? input
      : typeof input === 'object' &&
          input !== null &&
          typeof (input as { dimacs?: unknown }).dimacs === 'string'
        ? (input as { dimacs: string }).dimacs
        : undefined;
  if (text === undefined) throw new InputError('input', 'expected DIMACS text');
  try {
    return { formula: parseDimacs(text) };
  } catch (err) {
    if (err instanceof DimacsSyntaxError) throw new InputError('input', `DIMACS ${err.message}`);
    throw err;
  }
}
