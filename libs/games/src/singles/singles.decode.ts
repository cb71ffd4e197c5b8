import type { Model, VariablePool } from '@satfarm/cnf';

import type { SinglesCell, SinglesSolution } from './singles.model.js';

/** Reads the shaded cells, row-major, from the `black(r,c)` variables. */
export function decodeSingles(
  pool: VariablePool,
  width: number,
  height: number,
  model: Model,
): SinglesSolution {
  const black: SinglesCell[] = [];
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) if (model.named(pool, 'black', r, c)) black.push([r, c]);
  }
  return { black };
}
