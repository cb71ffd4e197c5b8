import type { Verdict } from '../game-definition.js';
import { MOVE_NAMES } from './hexahop.geometry.js';
import { type HexahopInstance, HexahopSimulator, type HexahopSolution } from './hexahop.model.js';

/**
 * Replays `solution.moves` in the simulator: every move must be accepted and survived, the last
 * one must win (none after it), there are at most `horizon` moves, and the reported score is the
 * game's. The cost is the number of moves.
 */
export function verifyHexahop(
  instance: HexahopInstance,
  solution: HexahopSolution,
  horizon: number,
): Verdict {
  const moves: unknown = solution?.moves;
  if (!Array.isArray(moves)) return { ok: false, reason: 'moves is not a list' };
  if (moves.length > horizon)
    return { ok: false, reason: `${moves.length} moves exceed the horizon ${horizon}` };
  const sim = new HexahopSimulator(instance);
  for (const [i, m] of moves.entries()) {
    if (typeof m !== 'string' || !(MOVE_NAMES as readonly string[]).includes(m)) {
      return { ok: false, reason: `move ${i + 1} is not one of ${MOVE_NAMES.join(' ')}` };
    }
    if (sim.won) return { ok: false, reason: `move ${i + 1} comes after the level was won` };
    const outcome = sim.move(m);
    if (!outcome.ok) return { ok: false, reason: `move ${i + 1} (${m}) is refused: ${outcome.reason}` };
    if (sim.dead) return { ok: false, reason: `move ${i + 1} (${m}) ends in death` };
  }
  if (!sim.won) return { ok: false, reason: `the level is not won after ${moves.length} moves` };
  if (solution.score !== sim.score) {
    return { ok: false, reason: `the reported score ${solution.score} is not the game's ${sim.score}` };
  }
  return { ok: true, cost: moves.length };
}
