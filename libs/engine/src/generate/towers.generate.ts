import { type RandomGenerator, unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import {
  blockTowersSolution,
  encodeTowers,
  formatTowersId,
  InputError,
  towersCluesOf,
  TOWERS_SIDES,
  type TowersGiven,
  type TowersInstance,
  type TowersSolution,
} from '@satfarm/games';
import { KissatRunner, type SatSolver } from '@satfarm/solver';

import { randomLatinSquare, shuffleInPlace } from './latin-square.generate.js';

/**
 * The largest size generated: the generator spends a solver call per clue and given it tries to
 * remove, each slower as n grows (docs/games.md#towers has the times). `solve towers` takes up to
 * TOWERS_MAX_SIZE.
 */
export const TOWERS_GENERATE_MAX_SIZE = 7;

/** What {@link generateTowers} takes. */
export interface TowersGenerateOptions {
  /** Grid size n, 1..TOWERS_GENERATE_MAX_SIZE (Tatham's game makes 3..9). */
  size: number;
  /** The same seed gives the same puzzle. */
  seed?: number;
  /** Remove every clue and given the solver proves unneeded (default true); false keeps all clues. */
  minimise?: boolean;
  /** The solver that proves uniqueness; kissat by default. */
  solver?: SatSolver;
  signal?: AbortSignal;
}

/** A generated puzzle with its unique solution. */
export interface GeneratedTowers {
  instance: TowersInstance;
  /** Tatham's game ID of the puzzle. */
  id: string;
  solution: TowersSolution;
  /** Solver calls spent proving uniqueness. */
  solves: number;
}

/**
 * Generates a Towers puzzle with exactly one solution: a random Latin square, all its clues, givens
 * added from a second solution while one exists, then (with `minimise`) every clue and given
 * removed, givens first, whose removal leaves the solution unique. Each check is one solve with the
 * intended grid blocked: UNSAT proves it unique. Throws `InputError` naming `size` for a size
 * outside 1..TOWERS_GENERATE_MAX_SIZE.
 */
export async function generateTowers(options: TowersGenerateOptions): Promise<GeneratedTowers> {
  const { size: n } = options;
  if (!Number.isInteger(n) || n < 1 || n > TOWERS_GENERATE_MAX_SIZE)
    throw new InputError('size', `must be an integer in 1..${TOWERS_GENERATE_MAX_SIZE}, got ${n}`);
  const rng: RandomGenerator = xoroshiro128plus(options.seed ?? Date.now());
  const solver = options.solver ?? new KissatRunner();
  const grid = randomLatinSquare(n, rng);
  const solution: TowersSolution = { grid };
  let solves = 0;

  /** A second solution of `instance` other than `grid`, or undefined when `grid` is the only one. */
  const otherSolution = async (instance: TowersInstance): Promise<TowersSolution | undefined> => {
    const encoded = encodeTowers(instance);
    encoded.formula.add(blockTowersSolution(encoded.formula, solution));
    solves++;
    const outcome = await solver.solve({ formula: encoded.formula, signal: options.signal });
    if (outcome.status === 'unsat') return undefined;
    if (outcome.status === 'sat') return encoded.decode(outcome.model);
    throw new Error(`the solver gave no answer (${outcome.status}) while generating`);
  };

  const instance: TowersInstance = { n, ...towersCluesOf(grid), givens: [] };
  for (
    let other = await otherSolution(instance);
    other !== undefined;
    other = await otherSolution(instance)
  ) {
    const differing: TowersGiven[] = [];
    grid.forEach((row, r) => row.forEach((h, c) => other.grid[r]![c] !== h && differing.push([r, c, h])));
    instance.givens.push(differing[unsafeUniformIntDistribution(0, differing.length - 1, rng)]!);
  }

  if (options.minimise ?? true) {
    for (const given of shuffleInPlace([...instance.givens], rng)) {
      const without = { ...instance, givens: instance.givens.filter((g) => g !== given) };
      if ((await otherSolution(without)) === undefined) instance.givens = without.givens;
    }
    const clueSlots = TOWERS_SIDES.flatMap((side) => instance[side].map((_, i) => [side, i] as const));
    for (const [side, i] of shuffleInPlace(clueSlots, rng)) {
      const clue = instance[side][i]!;
      instance[side][i] = 0;
      if ((await otherSolution(instance)) !== undefined) instance[side][i] = clue;
    }
  }
  instance.givens.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { instance, id: formatTowersId(instance), solution, solves };
}
