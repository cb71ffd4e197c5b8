import type { Verdict } from '../game-definition.js';
import {
  applyMoveToFacelets,
  type CubeInstance,
  type CubeSolution,
  faceletsSolved,
  moveCost,
  parseMove,
} from './cube.model.js';

/**
 * Checks a plan by moving stickers (not cubies, so independently of the encoding's cubie model):
 * every move must be one of the 18 face moves, the cube must end with every face one colour, and
 * the plan's length in the instance's metric must fit the horizon.
 */
export function verifyCube(instance: CubeInstance, solution: CubeSolution, horizon: number): Verdict {
  let facelets = instance.facelets;
  let cost = 0;
  for (const [i, name] of solution.moves.entries()) {
    const move = parseMove(name);
    if (move === undefined) return { ok: false, reason: `move ${i + 1} '${name}' is not a face move` };
    facelets = applyMoveToFacelets(instance.size, facelets, move);
    cost += moveCost(move, instance.metric);
  }
  if (!faceletsSolved(instance.size, facelets))
    return { ok: false, reason: 'the moves do not solve the cube' };
  if (cost > horizon)
    return {
      ok: false,
      reason: `the plan takes ${cost} moves (${instance.metric}), more than the horizon ${horizon}`,
    };
  return { ok: true, cost };
}

/** The length of a plan in its metric (a half turn counts 2 in the quarter-turn metric). */
export function cubePlanLength(solution: CubeSolution): number {
  return solution.moves.reduce((sum, name) => {
    const move = parseMove(name);
    return sum + (move === undefined ? 1 : moveCost(move, solution.metric ?? 'htm'));
  }, 0);
}
