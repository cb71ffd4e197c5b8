/*
 * Towers on an n x n grid with C clued lines (C <= 4n) and G givens.
 * Variables:
 *   height(r,c,h), one-hot heights: n^3;
 *   atLeast(r,c,h) "height >= h" (order encoding), h = 2..n: n^2 (n-1);
 *   tallest(s,i,j,h) "the first j+1 cells of line (s,i) hold a tower >= h", j = 1..n-2, h = 2..n
 *     (j = 0 is atLeast of the first cell): at most C (n-2)(n-1);
 *   seen(s,i,j) "cell j of the line is taller than everything before it", j = 1..n-1
 *     (the first cell is always seen): C (n-1);
 *   cardinality auxiliaries of the chosen encoding (totalizer: O(n log n) per clued line).
 * Clauses:
 *   exactly one height per cell, each height once per row and once per column: 3 n^2 groups of n
 *     (at-most-one of the chosen encoding plus one n-literal clause each);
 *   order links atLeast(h) <-> height(h) or atLeast(h+1): 3 n^2 (n-1);
 *   running maximum tallest(j,h) <-> tallest(j-1,h) or atLeast(cell j,h): 3 C (n-2)(n-1);
 *   seen(j) <-> the height h of cell j exceeds tallest(j-1): at most 2 C (n-1)^2 ternary;
 *   count: exactly clue-1 of seen(1..n-1) per clued line, O(n^2) clauses each;
 *   clue bounds (optional): cell j of a line with clue k is at most n - k + 1 + j, at most C n^2 / 2 units;
 *   givens: G units.
 */
import {
  type AmoEncoding,
  type CardinalityEncoding,
  CnfFormula,
  exactlyK,
  exactlyOne,
  type Lit,
  type Model,
} from '@satfarm/cnf';

import type { EncodeOptions, Encoded } from '../game-definition.js';
import { decodeTowers } from './towers.decode.js';
import { clueLineCells, TOWERS_SIDES, type TowersInstance, type TowersSolution } from './towers.model.js';

/** Encoding choices, switched by `options.variant` for benchmarks. */
export interface TowersEncodingChoices {
  amo: AmoEncoding;
  cardinality: CardinalityEncoding;
  /** Add the clue bounds as units: with clue k, cell j of the line is at most n - k + 1 + j. */
  bounds: boolean;
}

/** The default choices. */
export const DEFAULT_TOWERS_ENCODING: TowersEncodingChoices = {
  amo: 'auto',
  cardinality: 'totalizer',
  bounds: true,
};

/** The choices named in `options.variant` over the defaults; unknown names throw `RangeError`. */
export function towersEncodingChoices(options?: EncodeOptions): TowersEncodingChoices {
  const variant = options?.variant ?? {};
  const choices = { ...DEFAULT_TOWERS_ENCODING };
  for (const [key, value] of Object.entries(variant)) {
    if (key === 'amo') choices.amo = value as AmoEncoding;
    else if (key === 'cardinality') choices.cardinality = value as CardinalityEncoding;
    else if (key === 'bounds') choices.bounds = value === true;
    else throw new RangeError(`unknown towers encoding option '${key}'`);
  }
  return choices;
}

/** Encodes a Towers puzzle; the blocking clause ranges over the one-hot heights only. */
export function encodeTowers(instance: TowersInstance, options?: EncodeOptions): Encoded<TowersSolution> {
  const choices = towersEncodingChoices(options);
  const { n } = instance;
  const formula = new CnfFormula();
  const pool = formula.pool;
  const height = (r: number, c: number, h: number): Lit => pool.named('height', r, c, h);
  const heights = (r: number, c: number): Lit[] => range(1, n).map((h) => height(r, c, h));
  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) heights(r, c);

  for (let r = 0; r < n; r++) for (let c = 0; c < n; c++) exactlyOne(formula, heights(r, c), choices.amo);
  for (let i = 0; i < n; i++) {
    for (let h = 1; h <= n; h++) {
      exactlyOne(
        formula,
        range(0, n - 1).map((c) => height(i, c, h)),
        choices.amo,
      );
      exactlyOne(
        formula,
        range(0, n - 1).map((r) => height(r, i, h)),
        choices.amo,
      );
    }
  }

  // atLeast(r,c,1) is true and atLeast(r,c,n+1) false: both are left out of the clauses.
  const atLeast = (r: number, c: number, h: number): Lit => pool.named('atLeast', r, c, h);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      for (let h = 2; h <= n; h++) {
        const ge = atLeast(r, c, h);
        formula.add([-height(r, c, h), ge]);
        if (h < n) {
          formula.add([-atLeast(r, c, h + 1), ge]);
          formula.add([-ge, height(r, c, h), atLeast(r, c, h + 1)]);
        } else {
          formula.add([-ge, height(r, c, h)]);
        }
      }
    }
  }

  for (const side of TOWERS_SIDES) {
    instance[side].forEach((clue, i) => {
      if (clue === 0) return;
      const cells = clueLineCells(n, side, i);
      if (choices.bounds) {
        // k - 1 towers must still rise after cell j, so it stands at most n - (k - 1 - j) high.
        cells.forEach(([r, c], j) => {
          for (let h = n - clue + 2 + j; h <= n; h++) formula.add([-height(r, c, h)]);
        });
      }
      // tallestBefore[j][h]: the running maximum of cells 0..j-1 is >= h (h = 2..n).
      let previous = (h: number): Lit => atLeast(cells[0]![0], cells[0]![1], h);
      const seen: Lit[] = [];
      for (let j = 1; j < n; j++) {
        const [r, c] = cells[j]!;
        const tallestBefore = previous;
        const s = pool.named('seen', side, i, j);
        seen.push(s);
        formula.add([-height(r, c, 1), -s]);
        for (let h = 2; h <= n; h++) {
          formula.add([-height(r, c, h), tallestBefore(h), s]);
          formula.add([-height(r, c, h), -tallestBefore(h), -s]);
        }
        if (j < n - 1) {
          for (let h = 2; h <= n; h++) {
            const t = pool.named('tallest', side, i, j, h);
            formula.add([-tallestBefore(h), t]);
            formula.add([-atLeast(r, c, h), t]);
            formula.add([-t, tallestBefore(h), atLeast(r, c, h)]);
          }
          previous = (h: number): Lit => pool.named('tallest', side, i, j, h);
        }
      }
      exactlyK(formula, seen, clue - 1, choices.cardinality);
    });
  }

  for (const [r, c, h] of instance.givens) formula.add([height(r, c, h)]);

  const decode = (model: Model): TowersSolution => decodeTowers(pool, n, model);
  return { formula, decode, blockingClause: (model) => blockTowersSolution(formula, decode(model)) };
}

/** The clause "some cell differs from `solution`", over the heights of a formula from {@link encodeTowers}. */
export function blockTowersSolution(formula: CnfFormula, solution: TowersSolution): Lit[] {
  return solution.grid.flatMap((row, r) =>
    row.map((h, c) => {
      const v = formula.pool.lookup('height', r, c, h);
      if (v === undefined) throw new RangeError(`no height ${h} at (${r}, ${c}) in this formula`);
      return -v;
    }),
  );
}

function range(from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i <= to; i++) out.push(i);
  return out;
}
