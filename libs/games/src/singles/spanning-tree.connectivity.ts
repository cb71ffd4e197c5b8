/*
 * White cells connected, eagerly, as a spanning tree with binary depths, on a W x H grid of N = WH
 * cells with E = 2WH - W - H edges and B = ceil(log2 N) depth bits.
 * The root is cell a = (0,0) when white, else its neighbour b (white, since a black cell's
 * neighbours are white). Every other white cell picks a neighbour as parent whose depth is smaller;
 * following parents then ends at the root, so every white cell is connected to it.
 * Variables: depth(v,i): N B;  parent(v,u) per directed edge: 2E;  comparator auxiliaries: 2E (B-1).
 * Clauses: "white -> root or some parent": N - 1 (up to 5 literals);  parent(v,u) -> white(u): 2E;
 *   parent(v,u) -> depth(u) < depth(v), a lexicographic comparison from the top bit down with
 *   parent(v,u) as its top-level literal: 2E 3B, ternary and binary.
 */
import { type CnfFormula, lessThan, type Lit } from '@satfarm/cnf';

import { singlesNeighbours } from './singles.model.js';
import type { WhiteLiteral } from './reachability.connectivity.js';

/** Adds "the white cells form one connected region" as a spanning tree with binary depths. */
export function spanningTreeConnectivity(
  formula: CnfFormula,
  width: number,
  height: number,
  white: WhiteLiteral,
): void {
  const cells = width * height;
  if (cells < 2) return;
  const pool = formula.pool;
  const bits = Math.max(1, Math.ceil(Math.log2(cells)));
  const depth = (r: number, c: number, i: number): Lit => pool.named('depth', r, c, i);
  const rootB: [number, number] = width > 1 ? [0, 1] : [1, 0];

  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      if (r === 0 && c === 0) continue;
      const parents: Lit[] = [];
      for (const [ur, uc] of singlesNeighbours(width, height, r, c)) {
        const parent = pool.named('parent', r, c, ur, uc);
        parents.push(parent);
        formula.add([-parent, white(ur, uc)]);
        lessThan(
          formula,
          parent,
          bits,
          (i) => depth(ur, uc, i),
          (i) => depth(r, c, i),
        );
      }
      const isB = r === rootB[0] && c === rootB[1];
      // b is the root exactly when a is black.
      formula.add(isB ? [-white(r, c), -white(0, 0), ...parents] : [-white(r, c), ...parents]);
    }
  }
}
