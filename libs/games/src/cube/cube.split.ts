import type { HorizonSplit } from '../game-definition.js';
import { splitByMoves } from '../split-by-moves.js';
import { mergeTurns } from './cube.decode.js';
import {
  type CubeInstance,
  type CubeSolution,
  CubeState,
  type Move,
  moveName,
  parseMove,
  solverMoves,
} from './cube.model.js';

const stateKey = (s: CubeState): string => String.fromCharCode(...s.cp, ...s.co, ...s.ep, ...s.eo);

/**
 * The cube's horizon split by its first `depth` moves (`GameDefinition.split`): each position the
 * solver's moves reach in `depth` moves and no fewer is a cube, the position as an instance in the
 * same metric. A plan within the horizon has a shortest plan under it, whose first `depth` moves
 * reach a position at exactly that distance, so some cube has a plan within the moves left.
 * Prefixes take every solver move, with no sequence pruning, so no such position is missed; each
 * cube's encoding prunes its own plan as it does any instance's (that keeps a shortest plan from
 * its position), and nothing forbids its first move after the prefix's last
 * (docs/solvers.md#splitting-a-horizon).
 */
export function splitCube(
  instance: CubeInstance,
  depth: number,
  horizon: number,
): HorizonSplit<CubeInstance, CubeSolution> | undefined {
  const moves = solverMoves(instance.size, instance.metric);
  const split = splitByMoves<CubeState, Move, CubeInstance>(
    {
      start: CubeState.fromFacelets(instance.size, instance.facelets),
      successors: (state) => moves.map((m) => [m, state.apply(m)] as const),
      key: stateKey,
      reached: (state) => state.isSolved(),
      instanceOf: (state) => ({ size: instance.size, metric: instance.metric, facelets: state.toFacelets() }),
    },
    depth,
    horizon,
  );
  if (split === undefined) return undefined;
  const solution = (path: readonly Move[]): CubeSolution => ({
    moves: path.map(moveName),
    metric: instance.metric,
  });
  return {
    cubes: split.cubes.map((cube) => ({
      prefix: solution(cube.moves),
      // Every solver move takes one step of the horizon (the quarter-turn metric has no half turns).
      depth: cube.moves.length,
      instance:
        instance.scramble === undefined
          ? cube.instance
          : { ...cube.instance, scramble: [...instance.scramble, ...cube.moves.map(moveName)] },
    })),
    ...(split.plan === undefined ? {} : { plan: solution(split.plan) }),
  };
}

/** A cube's prefix and a plan from its position as one plan, turns of one face merged. */
export function joinCubePlan(instance: CubeInstance, prefix: CubeSolution, rest: CubeSolution): CubeSolution {
  const moves = [...prefix.moves, ...rest.moves].map((name) => {
    const move = parseMove(name);
    if (move === undefined) throw new RangeError(`'${name}' is not a face move`);
    return move;
  });
  return { moves: mergeTurns(moves).map(moveName), metric: instance.metric };
}
