import type { TowersInstance } from './towers.model.js';

/** Towers is one solve, not a horizon sweep: its horizon is always 0. */
export function towersLowerBound(_instance: TowersInstance): number {
  return 0;
}
