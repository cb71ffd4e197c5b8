/*
 * White cells connected, eagerly, as layered reachability from a root on a W x H grid of N = WH
 * cells: reach(v,s) "v is white and within s steps of the root through white cells", s = 0..N-1
 * (no white path is longer). The root is a = (0,0) when white, else its neighbour b.
 * Variables: reach(v,s) for s at least v's grid distance to the nearer root candidate: < N^2.
 * Clauses: reach(v,s) -> white(v), and reach(v,s) -> reach(v,s-1) or reach(u,s-1) for a neighbour
 *   u: 2 per variable (up to 6 literals);  root: 2;  white(v) -> reach(v,N-1): N.
 */
import type { CnfFormula, Lit } from '@satfarm/cnf';

import { singlesNeighbours } from './singles.model.js';

/** The literal "cell (r, c) is white" of a Singles formula. */
export type WhiteLiteral = (r: number, c: number) => Lit;

/** Adds "the white cells form one connected region" as layered reachability from a root. */
export function reachabilityConnectivity(
  formula: CnfFormula,
  width: number,
  height: number,
  white: WhiteLiteral,
): void {
  const cells = width * height;
  if (cells < 2) return;
  const pool = formula.pool;
  const last = cells - 1;
  const rootB: [number, number] = width > 1 ? [0, 1] : [1, 0];
  const firstStep = (r: number, c: number): number =>
    Math.min(r + c, Math.abs(r - rootB[0]) + Math.abs(c - rootB[1]));
  // Layers below a cell's distance to both roots are false: those variables are never made.
  const reach = (r: number, c: number, s: number): Lit | undefined =>
    s < firstStep(r, c) ? undefined : pool.named('reach', r, c, s);

  formula.add([-pool.named('reach', 0, 0, 0), white(0, 0)]);
  formula.add([-pool.named('reach', rootB[0], rootB[1], 0), -white(0, 0)]);
  for (let s = 0; s <= last; s++) {
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        const here = reach(r, c, s);
        if (here === undefined || s === 0) continue;
        formula.add([-here, white(r, c)]);
        const sources: Lit[] = [];
        const stay = reach(r, c, s - 1);
        if (stay !== undefined) sources.push(stay);
        for (const [ur, uc] of singlesNeighbours(width, height, r, c)) {
          const from = reach(ur, uc, s - 1);
          if (from !== undefined) sources.push(from);
        }
        formula.add([-here, ...sources]);
      }
    }
  }
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) formula.add([-white(r, c), reach(r, c, last)!]);
  }
}
