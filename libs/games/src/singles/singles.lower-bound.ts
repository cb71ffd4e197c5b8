import type { SinglesInstance } from './singles.model.js';

/** Singles is one solve, not a horizon sweep: its horizon is always 0. */
export function singlesLowerBound(_instance: SinglesInstance): number {
  return 0;
}
