import type { Model, VariablePool } from '@satfarm/cnf';

import { DIRECTION_NAMES, type MoveName } from './hexahop.geometry.js';
import { type HexahopInstance, HexahopSimulator, type HexahopSolution } from './hexahop.model.js';

/** Action indices: the six directions, then a jump in place. */
const ACTIONS = [0, 1, 2, 3, 4, 5, 6];
const JUMP = 6;

/**
 * Reads the plan out of a model: the direction `act(d,t)` of each step until `done`, named
 * N NE SE S SW NW (and J for a jump); the score is the simulator's for those moves, the par the level's.
 */
export function decodeHexahop(
  model: Model,
  pool: VariablePool,
  instance: HexahopInstance,
  horizon: number,
): HexahopSolution {
  const moves: MoveName[] = [];
  for (let t = 1; t <= horizon; t++) {
    if (model.named(pool, 'done', t - 1)) break;
    const a = ACTIONS.find((i) => model.named(pool, 'act', i, t));
    if (a === undefined) break;
    moves.push(a === JUMP ? 'J' : DIRECTION_NAMES[a]!);
  }
  return hexahopSolutionOf(instance, moves);
}

/** A plan of `moves` with the simulator's score for them and the level's par. */
export function hexahopSolutionOf(instance: HexahopInstance, moves: MoveName[]): HexahopSolution {
  const score = scoreOf(instance, moves);
  return instance.par === undefined ? { moves, score } : { moves, score, par: instance.par };
}

/** The score the game gives `moves` (played until one is refused). */
export function scoreOf(instance: HexahopInstance, moves: readonly MoveName[]): number {
  const sim = new HexahopSimulator(instance);
  for (const m of moves) if (!sim.move(m).ok) break;
  return sim.score;
}
