import type { HorizonSplit } from '../game-definition.js';
import { splitByMoves } from '../split-by-moves.js';
import { hexahopSolutionOf } from './hexahop.decode.js';
import { DIRECTION_NAMES, MOVE_NAMES, type MoveName } from './hexahop.geometry.js';
import { type HexahopInstance, HexahopSimulator, type HexahopSolution } from './hexahop.model.js';

/**
 * A level's horizon split by its first `depth` moves (`GameDefinition.split`): every win within
 * the horizon plays some first moves and then wins within the moves left from where they lead.
 * The simulator plays them; each distinct state is one cube, taken at the fewest moves that reach
 * it (which leaves it the most), and a state where the player holds an item (no instance starts
 * with one) is taken a move deeper. Refused moves and deaths start no cube. The prefix's plan
 * carries the score of its moves.
 */
export function splitHexahop(
  level: HexahopInstance,
  depth: number,
  horizon: number,
): HorizonSplit<HexahopInstance, HexahopSolution> | undefined {
  const split = splitByMoves<HexahopSimulator, MoveName, HexahopInstance>(
    {
      start: new HexahopSimulator(level),
      successors: function* (sim) {
        // A jump only with a jump item held.
        for (const m of sim.jumps > 0 ? MOVE_NAMES : DIRECTION_NAMES) {
          const child = sim.clone();
          if (child.move(m).ok && !child.dead) yield [m, child] as const;
        }
      },
      key: (sim) => sim.key(),
      reached: (sim) => sim.won,
      instanceOf: (sim) => sim.toInstance(level),
    },
    depth,
    horizon,
  );
  if (split === undefined) return undefined;
  return {
    cubes: split.cubes.map((cube) => ({
      prefix: hexahopSolutionOf(level, cube.moves),
      depth: cube.moves.length,
      instance: cube.instance,
    })),
    ...(split.plan === undefined ? {} : { plan: hexahopSolutionOf(level, split.plan) }),
  };
}

/** A cube's prefix and a plan from its state as one plan, scored by the simulator from the start. */
export function joinHexahopPlan(
  level: HexahopInstance,
  prefix: HexahopSolution,
  rest: HexahopSolution,
): HexahopSolution {
  return hexahopSolutionOf(level, [...prefix.moves, ...rest.moves]);
}
