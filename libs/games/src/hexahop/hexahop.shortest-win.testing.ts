import type { MoveName } from './hexahop.geometry.js';
import type { HexahopInstance } from './hexahop.model.js';
import { searchShortestWin } from './hexahop.search.js';

/**
 * Fewest moves to win, by breadth-first search over simulator states (undefined: never): the
 * reference the specs hold the encoding and the lower bound to, on maps small enough to search.
 */
export function shortestWin(instance: HexahopInstance, cap = 200_000): MoveName[] | undefined {
  const outcome = searchShortestWin(instance, cap);
  if (outcome.capped) throw new Error('search space too large for a spec');
  return outcome.plan;
}
