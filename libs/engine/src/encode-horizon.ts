import { type BuildLimits, FormulaBuildStopped } from '@satfarm/cnf';
import {
  type EncodingChoices,
  type Encoded,
  type GameDefinition,
  type GameId,
  InputError,
  MAX_HORIZON,
} from '@satfarm/games';

import { encodeWithin } from './horizon-solver.js';
import { checkEncoding } from './solve-options.js';

/** One formula to write: a planning game's horizon, and the encoding choices `solve` would take. */
export interface HorizonRequest {
  /** Planning games: the horizon, required; single-solve games have one formula and refuse it. */
  horizon?: number;
  /** The game's encoding choices (`solve --encoding`), checked by the game. */
  encoding?: EncodingChoices;
}

/**
 * Checks `request` against `game` and gives the horizon to encode: `horizon` for a planning game
 * (required, a whole number at most `MAX_HORIZON`, the largest `solve --max-horizon` takes), 0
 * for a single-solve game (which refuses a horizon), after the encoding choices
 * (`checkEncoding`). Throws an `InputError` naming the field by `name` (`horizon`,
 * `encoding.<choice>`).
 */
export function checkHorizonRequest(
  game: GameDefinition<unknown, unknown>,
  request: HorizonRequest,
  name: (field: 'horizon') => string = (field) => field,
): number {
  const { horizon } = request;
  if (!game.planning) {
    if (horizon !== undefined) {
      throw new InputError(
        name('horizon'),
        `applies to planning games with a horizon, not to ${game.id} (one formula, no horizon)`,
      );
    }
  } else if (horizon === undefined) {
    throw new InputError(name('horizon'), `required for ${game.id}, a planning game: the horizon to encode`);
  } else if (!Number.isSafeInteger(horizon) || horizon < 0) {
    throw new InputError(name('horizon'), `must be a whole number from 0, got ${horizon}`);
  } else if (horizon > MAX_HORIZON) {
    throw new InputError(
      name('horizon'),
      `must be at most ${MAX_HORIZON}, the largest horizon a solve may ask for, got ${horizon}`,
    );
  }
  checkEncoding(game, request.encoding);
  return horizon ?? 0;
}

/** One horizon's formula, as the sweep's first solver call at that horizon gets it. */
export interface EncodedHorizon<S> {
  /** The horizon encoded (0 for a single-solve game). */
  horizon: number;
  encoded: Encoded<S>;
  meaning: FormulaMeaning;
}

/**
 * Encodes one horizon of `instance` exactly as `solve` does before its first solver call there
 * (`runHorizon`: the same `encode`, the same choices), within `limits`. Throws an `InputError` for a
 * bad request (`checkHorizonRequest`), and `FormulaBuildStopped` when the build outgrew `limits`.
 */
export function encodeHorizon<I, S>(
  game: GameDefinition<I, S>,
  instance: I,
  request: HorizonRequest,
  limits: BuildLimits = {},
  name?: (field: 'horizon') => string,
): EncodedHorizon<S> {
  const horizon = checkHorizonRequest(game, request, name);
  const { encoding } = request;
  const encoded = encodeWithin(
    game,
    instance,
    horizon,
    encoding === undefined ? undefined : { variant: encoding },
    limits,
  );
  if (encoded instanceof FormulaBuildStopped) throw encoded;
  return { horizon, encoded, meaning: formulaMeaning(game.id, horizon, encoded) };
}

/** What a solver's answer on one formula says about the instance, in words for its reader. */
export interface FormulaMeaning {
  sat: string;
  unsat: string;
  /** What else the reader must know: a model satfarm would still check, an UNSAT that proves nothing. */
  notes: string[];
}

/** Each game's SAT and UNSAT, at horizon `t` for the planning games (docs/games.md). */
const MEANINGS: Record<GameId, (t: number) => { sat: string; unsat: string }> = {
  cube: (t) => ({
    sat: `a solution of at most ${t} moves (in the instance's metric) exists`,
    unsat: `no solution of ${t} moves or fewer exists`,
  }),
  snake: (t) => ({
    sat: `the snake eats every apple (in order, for order "given") within ${t} steps (survive S: a legal walk of S steps exists, S <= ${t})`,
    unsat: `no walk of ${t} steps or fewer eats every apple (survive S: S > ${t}, or no walk of S steps)`,
  }),
  hexahop: (t) => ({
    sat: `a plan of at most ${t} moves solves the level`,
    unsat: `no plan of ${t} moves or fewer solves the level`,
  }),
  towers: () => ({ sat: 'the puzzle has a solution', unsat: 'the puzzle has no solution' }),
  singles: () => ({ sat: 'the puzzle has a solution', unsat: 'the puzzle has no solution' }),
  tictactoe: () => ({
    sat: "always: the model names the player's winning move, or none when no move wins",
    unsat: 'never (it would be a bug in the encoding)',
  }),
  cnf: () => ({ sat: 'the input formula is satisfiable', unsat: 'the input formula is unsatisfiable' }),
};

/**
 * What SAT and UNSAT of `encoded` (game `game`, horizon `t`) mean, with what the formula leaves to
 * satfarm's own checks: lazy clauses added after a model (`refine`), a window widened after a model
 * that leaves it (`widen`), an UNSAT that proves nothing (`unprovenUnsat`).
 */
export function formulaMeaning(game: GameId, t: number, encoded: Encoded<unknown>): FormulaMeaning {
  const notes: string[] = [];
  if (encoded.refine !== undefined)
    notes.push(
      'lazy encoding: some rules are added only when a model breaks them, so a model may be no solution (satfarm checks each one and solves again with the clauses it breaks); UNSAT is still a proof',
    );
  if (encoded.widen !== undefined)
    notes.push(
      'windowed encoding: a model may leave the encoded window and then is no plan (satfarm encodes a wider window); UNSAT is still a proof',
    );
  if (encoded.unprovenUnsat !== undefined)
    notes.push(`UNSAT proves nothing here: the encoding leaves some runs out (${encoded.unprovenUnsat})`);
  return { ...MEANINGS[game](t), notes };
}
