import { type SnakeInstance, type SnakeSimulator, startStates } from './snake.model.js';

/**
 * The shortest plan length by breadth-first search over simulator states from every start the
 * instance allows, or undefined if none: the specs' check that is independent of the encoder and
 * of the lower bound. Throws past `limit` states, so a test never hangs on a grid too large.
 */
export function shortestByBfs(instance: SnakeInstance, limit = 200_000): number | undefined {
  let frontier: SnakeSimulator[] = startStates(instance);
  if (frontier.some((s) => s.isDone())) return 0;
  const seen = new Set(frontier.map((s) => s.key()));
  for (let depth = 1; frontier.length > 0; depth++) {
    const next: SnakeSimulator[] = [];
    for (const state of frontier) {
      for (const move of state.legalMoves()) {
        const child = state.clone();
        child.move(move);
        if (child.isDone()) return depth;
        if (!seen.has(child.key())) {
          seen.add(child.key());
          next.push(child);
        }
      }
    }
    if (seen.size > limit) throw new Error('search too large for a test');
    frontier = next;
  }
  return undefined;
}

/** Whether a walk of `steps` legal steps exists from `sim`, by depth-first search. */
export function canSurvive(sim: SnakeSimulator, steps: number): boolean {
  if (steps === 0) return true;
  return sim.legalMoves().some((move) => {
    const child = sim.clone();
    child.move(move);
    return canSurvive(child, steps - 1);
  });
}
