/*
 * Singles on a W x H grid of N = WH cells with E = 2WH - W - H edges.
 * Variables: black(r,c): N;  plus those of the connectivity method (see spanning-tree.connectivity.ts,
 *   reachability.connectivity.ts; none for lazy cuts, connectivity.cuts.ts) and of at-most-one.
 * Clauses: no repeat among white cells: at most one white per group of k >= 2 equal numbers in a
 *   row or column (one binary clause for k = 2, the at-most-one encoding above);  no two black
 *   neighbours: E binary;  neighbour cuts (on by default): N of up to 4 literals;  connectivity:
 *   as the chosen method says (lazy: cuts added by `refine` between solves).
 */
import { type AmoEncoding, atMostOne, CnfFormula, type Lit, type Model } from '@satfarm/cnf';

import type { EncodeOptions } from '../game-definition.js';
import { connectivityCuts, neighbourCuts } from './connectivity.cuts.js';
import { reachabilityConnectivity, type WhiteLiteral } from './reachability.connectivity.js';
import type { RefinableEncoded } from './refinable-encoded.js';
import { decodeSingles } from './singles.decode.js';
import type { SinglesInstance, SinglesSolution } from './singles.model.js';
import { spanningTreeConnectivity } from './spanning-tree.connectivity.js';

/**
 * How the white cells are kept connected: eager spanning tree, eager reachability, lazy cuts, or
 * `auto`, the faster eager one for the size. Lazy cuts are the fastest by far but need a
 * refinement loop, which a single engine solve does not run (docs/games.md#singles).
 */
export const SINGLES_CONNECTIVITY = ['auto', 'tree', 'reach', 'lazy'] as const;
export type SinglesConnectivity = (typeof SINGLES_CONNECTIVITY)[number];

/** Encoding choices, switched by `options.variant` for benchmarks. */
export interface SinglesEncodingChoices {
  connectivity: SinglesConnectivity;
  /**
   * Add "every cell has a white neighbour" up front: redundant for the eager methods, and saves
   * the lazy loop most of its rounds (docs/games.md#singles).
   */
  neighbourCuts: boolean;
  amo: AmoEncoding;
}

/** The default choices (see bench/puzzles for the measurements behind them). */
export const DEFAULT_SINGLES_ENCODING: SinglesEncodingChoices = {
  connectivity: 'lazy',
  neighbourCuts: true,
  amo: 'auto',
};

/** The largest cell count (16x16) for which `auto` picks reachability over the spanning tree. */
export const AUTO_REACH_LIMIT = 256;

/** The choices named in `options.variant` over the defaults; unknown names or values throw `RangeError`. */
export function singlesEncodingChoices(options?: EncodeOptions): SinglesEncodingChoices {
  const choices = { ...DEFAULT_SINGLES_ENCODING };
  for (const [key, value] of Object.entries(options?.variant ?? {})) {
    if (key === 'connectivity') {
      if (!(SINGLES_CONNECTIVITY as readonly unknown[]).includes(value)) {
        throw new RangeError(
          `unknown singles connectivity '${String(value)}'; known: ${SINGLES_CONNECTIVITY.join(', ')}`,
        );
      }
      choices.connectivity = value as SinglesConnectivity;
    } else if (key === 'neighbourCuts') choices.neighbourCuts = value === true;
    else if (key === 'amo') choices.amo = value as AmoEncoding;
    else throw new RangeError(`unknown singles encoding option '${key}'`);
  }
  return choices;
}

/**
 * Encodes a Singles puzzle. The blocking clause ranges over black(r,c) only. With lazy
 * connectivity the result has `refine`, and a model is a solution only once `refine` returns none.
 */
export function encodeSingles(
  instance: SinglesInstance,
  options?: EncodeOptions,
): RefinableEncoded<SinglesSolution> {
  const choices = singlesEncodingChoices(options);
  const { width, height, grid } = instance;
  const formula = new CnfFormula();
  const pool = formula.pool;
  const black = (r: number, c: number): Lit => pool.named('black', r, c);
  for (let r = 0; r < height; r++) for (let c = 0; c < width; c++) black(r, c);
  const white: WhiteLiteral = (r, c) => -black(r, c);

  const groups = new Map<string, Lit[]>();
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      for (const key of [`r${r}:${grid[r]![c]}`, `c${c}:${grid[r]![c]}`]) {
        const group = groups.get(key) ?? [];
        group.push(white(r, c));
        groups.set(key, group);
      }
    }
  }
  for (const group of groups.values()) atMostOne(formula, group, choices.amo);

  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      if (c + 1 < width) formula.add([-black(r, c), -black(r, c + 1)]);
      if (r + 1 < height) formula.add([-black(r, c), -black(r + 1, c)]);
    }
  }

  if (choices.neighbourCuts) formula.addAll(neighbourCuts(width, height, white));
  const connectivity =
    choices.connectivity === 'auto'
      ? width * height <= AUTO_REACH_LIMIT
        ? 'reach'
        : 'tree'
      : choices.connectivity;
  if (connectivity === 'tree') spanningTreeConnectivity(formula, width, height, white);
  if (connectivity === 'reach') reachabilityConnectivity(formula, width, height, white);

  const decode = (model: Model): SinglesSolution => decodeSingles(pool, width, height, model);
  const encoded: RefinableEncoded<SinglesSolution> = {
    formula,
    decode,
    blockingClause: (model) => blockSinglesSolution(formula, width, height, decode(model)),
  };
  if (choices.connectivity === 'lazy') {
    encoded.refine = (model) => {
      const isBlack = Array.from({ length: width * height }, (_, i) =>
        model.value(black(Math.floor(i / width), i % width)),
      );
      const cuts = connectivityCuts(width, height, isBlack, white);
      return cuts.length === 0 ? undefined : cuts;
    };
  }
  return encoded;
}

/** The clause "some cell's shade differs from `solution`", over black(r,c) of a formula from {@link encodeSingles}. */
export function blockSinglesSolution(
  formula: CnfFormula,
  width: number,
  height: number,
  solution: SinglesSolution,
): Lit[] {
  const shaded = new Set(solution.black.map(([r, c]) => r * width + c));
  const clause: Lit[] = [];
  for (let r = 0; r < height; r++) {
    for (let c = 0; c < width; c++) {
      const v = formula.pool.lookup('black', r, c);
      if (v === undefined) throw new RangeError(`no cell (${r}, ${c}) in this formula`);
      clause.push(shaded.has(r * width + c) ? -v : v);
    }
  }
  return clause;
}
