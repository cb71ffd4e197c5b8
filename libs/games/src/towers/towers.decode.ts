import type { Model, VariablePool } from '@satfarm/cnf';

import type { TowersSolution } from './towers.model.js';

/**
 * Reads the grid from the one-hot `height(r,c,h)` variables. A cell with no true height reads 0
 * (verification then rejects it): the encoding's exactly-one clauses make that impossible.
 */
export function decodeTowers(pool: VariablePool, n: number, model: Model): TowersSolution {
  const grid: number[][] = [];
  for (let r = 0; r < n; r++) {
    const row: number[] = [];
    for (let c = 0; c < n; c++) {
      let value = 0;
      for (let h = 1; h <= n; h++) if (model.named(pool, 'height', r, c, h)) value = h;
      row.push(value);
    }
    grid.push(row);
  }
  return { grid };
}
