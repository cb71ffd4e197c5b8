import type { Model, VariablePool } from '@satfarm/cnf';

import { type CubeSolution, type Metric, type Move, moveName } from './cube.model.js';

/**
 * Reads the plan of a model of the cube encoding: the move whose action variable `a(t, name)` is
 * true at each step (none once the plan has stopped), adjacent turns of one face merged.
 */
export function decodeCubePlan(
  model: Model,
  pool: VariablePool,
  horizon: number,
  moves: readonly Move[],
  metric: Metric,
): CubeSolution {
  const steps: Move[] = [];
  for (let t = 0; t < horizon; t++) {
    const m = moves.find((mv) => model.named(pool, 'a', t, moveName(mv)));
    if (m !== undefined) steps.push(m);
  }
  return { moves: mergeTurns(steps).map(moveName), metric };
}

/** Adjacent turns of the same face as one move (U U -> U2; U U' -> nothing). */
export function mergeTurns(moves: readonly Move[]): Move[] {
  const out: Move[] = [];
  for (const m of moves) {
    const last = out[out.length - 1];
    if (last !== undefined && last.face === m.face) {
      const turns = (last.turns + m.turns) % 4;
      out.pop();
      if (turns !== 0) out.push({ face: m.face, turns: turns as 1 | 2 | 3 });
    } else {
      out.push(m);
    }
  }
  return out;
}
