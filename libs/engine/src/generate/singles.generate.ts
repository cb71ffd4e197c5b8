import { type RandomGenerator, unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import {
  formatSinglesId,
  InputError,
  SINGLES_MAX_SIDE,
  type SinglesCell,
  type SinglesConnectivity,
  type SinglesInstance,
  singlesNeighbours,
  type SinglesSolution,
  whiteRegions,
} from '@satfarm/games';
import { KissatRunner, type SatSolver } from '@satfarm/solver';

import { randomLatinSquare, shuffleInPlace } from './latin-square.generate.js';
import { SinglesUniquenessCheck } from './singles.unique.js';

/**
 * The fewest cells of a puzzle with one solution: in 1x1 and 1x2 grids either cell may be the
 * black one (or none), whatever the numbers.
 */
export const SINGLES_MIN_CELLS = 3;

/** What {@link generateSingles} takes. */
export interface SinglesGenerateOptions {
  width: number;
  /** Defaults to `width`. */
  height?: number;
  /** The same seed gives the same puzzle. */
  seed?: number;
  /** The solver that proves uniqueness; kissat by default. */
  solver?: SatSolver;
  /** How the uniqueness solves keep white cells connected (default `lazy`, the fastest measured). */
  connectivity?: SinglesConnectivity;
  /** Renumberings tried before starting over from a new grid (default 200). */
  maxRepairs?: number;
  /** New grids tried before giving up with an error (default 50; tiny grids may have no unique puzzle). */
  maxAttempts?: number;
  signal?: AbortSignal;
}

/** A generated puzzle with its unique solution. */
export interface GeneratedSingles {
  instance: SinglesInstance;
  /** Tatham's game ID of the puzzle. */
  id: string;
  solution: SinglesSolution;
  /** Solver calls spent proving uniqueness (refinement rounds included). */
  solves: number;
}

/**
 * Generates a Singles puzzle with exactly one solution: a random maximal shading over a Latin
 * square, renumbered while the solver finds a second shading until none is left
 * (docs/games.md#singles). Throws `InputError` naming `width` or `height` for a size no puzzle
 * has, and a plain error after `maxAttempts` grids without a unique one.
 */
export async function generateSingles(options: SinglesGenerateOptions): Promise<GeneratedSingles> {
  const width = options.width;
  const height = options.height ?? width;
  for (const [name, side] of [
    ['width', width],
    ['height', height],
  ] as const) {
    if (!Number.isInteger(side) || side < 1 || side > SINGLES_MAX_SIDE)
      throw new InputError(name, `must be an integer in 1..${SINGLES_MAX_SIDE}, got ${side}`);
  }
  if (width * height < SINGLES_MIN_CELLS) {
    // The side the caller set last is the one to change: the height, when it was given.
    throw new InputError(
      options.height !== undefined && height < width ? 'height' : 'width',
      `a ${width}x${height} grid has no puzzle with a unique solution: it needs at least ${SINGLES_MIN_CELLS} cells`,
    );
  }
  const rng = xoroshiro128plus(options.seed ?? Date.now());
  const uniqueness = new SinglesUniquenessCheck(
    options.solver ?? new KissatRunner(),
    options.connectivity ?? 'lazy',
    options.signal,
  );
  const maxRepairs = options.maxRepairs ?? 200;
  const maxAttempts = options.maxAttempts ?? 50;
  for (let attempt = 0; attempt < maxAttempts; attempt++) {
    const square = randomLatinSquare(Math.max(width, height), rng);
    const grid = square.slice(0, height).map((row) => row.slice(0, width));
    const isBlack = maximalShading(width, height, rng);
    const at = (r: number, c: number): boolean => isBlack[r * width + c]!;
    const lineMates = (r: number, c: number): SinglesCell[] => [
      ...Array.from({ length: width }, (_, cc): SinglesCell => [r, cc]).filter(([, cc]) => cc !== c),
      ...Array.from({ length: height }, (_, rr): SinglesCell => [rr, c]).filter(([rr]) => rr !== r),
    ];
    for (let r = 0; r < height; r++) {
      for (let c = 0; c < width; c++) {
        if (!at(r, c)) continue;
        const whites = lineMates(r, c).filter(([rr, cc]) => !at(rr, cc));
        if (whites.length === 0) continue;
        const [wr, wc] = whites[pick(whites.length, rng)]!;
        grid[r]![c] = grid[wr]![wc]!;
      }
    }
    const solution: SinglesSolution = { black: [] };
    for (let i = 0; i < width * height; i++)
      if (isBlack[i]) solution.black.push([Math.floor(i / width), i % width]);
    const instance: SinglesInstance = { width, height, grid };

    for (let repair = 0; repair <= maxRepairs; repair++) {
      const other = await uniqueness.otherSolution(instance, solution);
      if (other === undefined)
        return { instance, id: formatSinglesId(instance), solution, solves: uniqueness.solves };
      const otherBlack = new Set(other.black.map(([r, c]) => r * width + c));
      const fixes: [SinglesCell, SinglesCell][] = [];
      for (const [r, c] of solution.black) {
        if (otherBlack.has(r * width + c)) continue;
        for (const [rr, cc] of lineMates(r, c)) {
          if (!at(rr, cc) && !otherBlack.has(rr * width + cc))
            fixes.push([
              [r, c],
              [rr, cc],
            ]);
        }
      }
      if (fixes.length === 0) break;
      const [[r, c], [rr, cc]] = fixes[pick(fixes.length, rng)]!;
      grid[r]![c] = grid[rr]![cc]!;
    }
  }
  throw new Error(`no ${width}x${height} puzzle with a unique solution after ${maxAttempts} grids`);
}

/**
 * A random maximal shading: cells visited in random order are shaded when no neighbour is shaded
 * and the white cells stay connected, in passes until one shades nothing.
 */
function maximalShading(width: number, height: number, rng: RandomGenerator): boolean[] {
  const isBlack = new Array<boolean>(width * height).fill(false);
  if (width * height < 2) return isBlack;
  const order = shuffleInPlace(
    Array.from({ length: width * height }, (_, i) => i),
    rng,
  );
  for (let changed = true; changed;) {
    changed = false;
    for (const i of order) {
      const r = Math.floor(i / width);
      const c = i % width;
      if (isBlack[i] || singlesNeighbours(width, height, r, c).some(([nr, nc]) => isBlack[nr * width + nc]))
        continue;
      isBlack[i] = true;
      if (whiteRegions(width, height, isBlack).length === 1) changed = true;
      else isBlack[i] = false;
    }
  }
  return isBlack;
}

function pick(length: number, rng: RandomGenerator): number {
  return unsafeUniformIntDistribution(0, length - 1, rng);
}
