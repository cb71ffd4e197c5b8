import type { Model, VariablePool } from '@satfarm/cnf';

import { SnakeGrid, type SnakeInstance, type SnakeSolution } from './snake.model.js';

/**
 * Reads the plan out of a model of the encoding at horizon `horizon`, by variable name: the cell
 * whose `head(x,y,t)` is true at each step, up to the first step at which every apple is eaten
 * (`count(P,t)` for any order, `eaten(P-1,t)` for the given order, `done(t)` with a spawn chain),
 * or `survive` steps. The path starts at the head's cell at step 0, chosen by the model for
 * `start: any`.
 */
export function decodeSnake(
  model: Model,
  pool: VariablePool,
  instance: SnakeInstance,
  horizon: number,
): SnakeSolution {
  const grid = SnakeGrid.of(instance);
  const P = instance.apples.length;
  const last = instance.survive ?? horizon;
  const done = (t: number): boolean => {
    if (instance.survive !== undefined) return false;
    if ((instance.spawn?.length ?? 0) > 0) return model.named(pool, 'done', t);
    if (P === 0) return true;
    return instance.order === 'given'
      ? model.named(pool, 'eaten', P - 1, t)
      : model.named(pool, 'count', P, t);
  };
  const path: SnakeSolution['path'] = [];
  for (let t = 0; t <= last; t++) {
    let found = -1;
    for (let c = 0; c < grid.size && found < 0; c++) {
      const [x, y] = grid.cell(c);
      if (model.named(pool, 'head', x, y, t)) found = c;
    }
    if (found < 0) break;
    path.push(grid.cell(found));
    if (done(t)) break;
  }
  return { path };
}
