/*
 * White cells connected, lazily: no clauses up front; each disconnected solution is cut off.
 * For a white region R of a solution with others outside it, its border D (the cells next to R,
 * all black) separates R from the rest. Every valid solution has a white cell in D: were D all
 * black, R (connected, so two adjacent cells or a cell next to a black one) would keep a white
 * cell, and so would the cells beyond D, which then lie in another region. One clause of |D|
 * literals per region, the neighbour cut of a single cell being 4 literals at most.
 */
import type { Lit } from '@satfarm/cnf';

import { singlesNeighbours, type SinglesCell, whiteRegions } from './singles.model.js';
import type { WhiteLiteral } from './reachability.connectivity.js';

/**
 * The cuts for a shading (`isBlack` row-major): one clause "some border cell is white" per white
 * region when there are two or more regions, none when the white cells are connected.
 */
export function connectivityCuts(
  width: number,
  height: number,
  isBlack: readonly boolean[],
  white: WhiteLiteral,
): Lit[][] {
  const regions = whiteRegions(width, height, isBlack);
  if (regions.length < 2) return [];
  return regions.map((region) => regionBorder(width, height, region).map(([r, c]) => white(r, c)));
}

/** The cells next to `region` and outside it. */
export function regionBorder(width: number, height: number, region: readonly SinglesCell[]): SinglesCell[] {
  const inside = new Set(region.map(([r, c]) => r * width + c));
  const border = new Map<number, SinglesCell>();
  for (const [r, c] of region) {
    for (const [nr, nc] of singlesNeighbours(width, height, r, c)) {
      const key = nr * width + nc;
      if (!inside.has(key)) border.set(key, [nr, nc]);
    }
  }
  return [...border.entries()].sort((x, y) => x[0] - y[0]).map(([, cell]) => cell);
}

/**
 * "Every cell has a white neighbour": the cuts of all single-cell regions, valid up front on grids
 * of 4 cells or more (smaller ones, such as 1x3 with only the middle white, can leave a lone
 * white cell; from 4 cells on, the other cells include two neighbours, not both black).
 */
export function neighbourCuts(width: number, height: number, white: WhiteLiteral): Lit[][] {
  const cuts: Lit[][] = [];
  if (width * height < 4) return cuts;
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++)
      cuts.push(singlesNeighbours(width, height, r, c).map(([nr, nc]) => white(nr, nc)));
  }
  return cuts;
}
