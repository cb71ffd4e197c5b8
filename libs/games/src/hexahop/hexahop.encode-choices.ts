import type { EncodeOptions, EncodingChoices } from '../game-definition.js';

/**
 * Encoding choices, set by `--encoding` (docs/cli.md) or a job's `options.encoding`: every choice
 * gives the same answers and changes only the formula. docs/hexahop.md says what each one adds
 * and where bench/README measured it.
 */
export interface HexahopEncodingChoices {
  /** Redundant clauses: a green cell still green at t needs the player within reach by T. */
  deadlines: boolean;
  /** Redundant clauses: the player's cell at t is one move from the cell at t - 1 (or the same, after the win). */
  predecessors: boolean;
  /**
   * Redundant move budget: moves that leave no green tile or wall, plus moves that leave a blue
   * tile or wall (each makes one more green to leave), number at most T minus the greens at the start.
   */
  budget: boolean;
  /** Redundant clauses: every green tile or wall at the start is stood on at some step before T. */
  visits: boolean;
  /**
   * Redundant phase (levels with green walls and no blue walls): lowered(t), "the green walls have
   * come down by step t", is monotone; once true every green at the start is water and no green
   * wall is left; a green wall's cell is green only once it is true.
   */
  phases: boolean;
  /**
   * Laser hits in the game's order, through the tree of beams of each shot, on every level with
   * lasers, not only where one shot may hit two neighbouring lasers (where the order changes the
   * outcome, and the tree is used there when `lazyOrder` is off).
   */
  orderedHits: boolean;
  /**
   * Where one shot may hit two neighbouring lasers: the hits are a set, the hit lasers that
   * explode are any maximal set of them with no two neighbours (every order of the hits gives
   * such a set), and `refine` cuts each model's shots to the game's order. Off: the tree of beams
   * in the game's order (as `orderedHits`), except where that tree is too large.
   */
  lazyOrder: boolean;
  /**
   * Redundant clauses: the player never steps from an inert cell (a normal tile or stone wall that
   * nothing changes, with no item) to an inert neighbour and straight back, which changes nothing.
   */
  returns: boolean;
  /**
   * Redundant clauses: moves in a row onto normal tiles (which change nothing) never come straight
   * back, never go round in two moves to a neighbour or in three to a cell two moves away, and of
   * the two orders of moves reaching the same cell two moves away over normal tiles, only the one
   * with the lower first direction is taken.
   */
  idleSteps: boolean;
  /**
   * Beams that a loop of ice could hold up by themselves are ruled out in the formula (a rank per
   * beam entering ice on such a loop, each beam fed by one of a lower rank), not cut afterwards
   * by `refine`, one model at a time.
   */
  beamRanks: boolean;
  /**
   * The player's reach step by step, over the tiles each cell may hold by then, not over every
   * tile it may ever hold: fewer cells to stand on early where tiles come late.
   */
  timedReach: boolean;
  /**
   * The move budget on levels with lasers too, where each shot sends one beam: a step whose shot
   * destroys a green adds as much room as one shot may destroy greens.
   */
  shotBudget: boolean;
}

export const DEFAULT_HEXAHOP_ENCODING: HexahopEncodingChoices = {
  deadlines: true,
  predecessors: true,
  budget: true,
  visits: false,
  phases: true,
  orderedHits: false,
  lazyOrder: true,
  returns: true,
  idleSteps: false,
  beamRanks: true,
  timedReach: true,
  shotBudget: false,
};

/** The keys `options.variant` may hold: the choices, and `window` (see `encodeHexahop`). */
const VARIANT_KEYS: readonly string[] = [...Object.keys(DEFAULT_HEXAHOP_ENCODING), 'window'];

/**
 * What is wrong with encoding choices a caller names, if anything: the first key that is no
 * choice, a choice that is not true or false, or a window that is not a whole number of steps.
 */
export function hexahopVariantProblem(variant: EncodingChoices): { key: string; reason: string } | undefined {
  for (const [key, value] of Object.entries(variant)) {
    if (!VARIANT_KEYS.includes(key)) {
      return { key, reason: `is no Hex-a-Hop encoding choice (one of ${VARIANT_KEYS.join(', ')})` };
    }
    if (key === 'window') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        return { key, reason: `must be a whole number of steps, got ${JSON.stringify(value)}` };
    } else if (typeof value !== 'boolean') {
      return { key, reason: `must be true or false, got ${JSON.stringify(value)}` };
    }
  }
  return undefined;
}

/**
 * Reads `options.variant` (keys as in HexahopEncodingChoices) over the defaults. A key that is no
 * choice, or a value the choice does not take, throws (a misspelt choice would otherwise leave
 * the default in place unseen, on runs that may take hours).
 */
export function hexahopEncodingChoices(options?: EncodeOptions): HexahopEncodingChoices {
  const variant = options?.variant ?? {};
  const problem = hexahopVariantProblem(variant);
  if (problem !== undefined) throw new RangeError(`variant.${problem.key} ${problem.reason}`);
  const choices = { ...DEFAULT_HEXAHOP_ENCODING };
  for (const key of Object.keys(choices) as (keyof HexahopEncodingChoices)[]) {
    if (variant[key] !== undefined) choices[key] = variant[key] === true;
  }
  return choices;
}

/** The window's radius `options.variant` names, if any (hexahopEncodingChoices has checked it). */
export function variantWindow(options?: EncodeOptions): number | undefined {
  return options?.variant?.['window'] as number | undefined;
}
