import { MOVE_NAMES, type MoveName } from './hexahop.geometry.js';
import { type HexahopInstance, HexahopSimulator } from './hexahop.model.js';

/**
 * Fewest moves to win, by breadth-first search over simulator states (undefined: never): the
 * reference the specs hold the encoding and the lower bound to, on maps small enough to search.
 */
export function shortestWin(instance: HexahopInstance, cap = 200_000): MoveName[] | undefined {
  const start = new HexahopSimulator(instance);
  const seen = new Set([start.key()]);
  let frontier: { sim: HexahopSimulator; moves: MoveName[] }[] = [{ sim: start, moves: [] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { sim, moves } of frontier) {
      for (const m of MOVE_NAMES) {
        const after = sim.clone();
        if (!after.move(m).ok || after.dead) continue;
        if (after.won) return [...moves, m];
        const key = after.key();
        if (seen.has(key)) continue;
        seen.add(key);
        if (seen.size > cap) throw new Error('search space too large for a spec');
        next.push({ sim: after, moves: [...moves, m] });
      }
    }
    frontier = next;
  }
  return undefined;
}
