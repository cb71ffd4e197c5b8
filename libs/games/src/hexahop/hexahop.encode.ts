/*
 * Hex-a-Hop at horizon T: "the level is won by step T", with an absorbing done state, so SAT(T) is
 * monotone in T. Each step runs the game's phases in order over tables of tile literals: S(t-1),
 * the state before; M(t), after the leave and its board check; E(t), after the final tile acted;
 * S(t), after the board check of builders and lasers (hexahop.encode-board.ts). A cell gets fresh
 * tile variables in a table only where that phase may change it. Why the formula is exact, and
 * what each redundant choice rests on: docs/hexahop.md.
 * n_t = cells the player may stand on after step t, N = sum of n_t, k_c <= 17 the tiles cell c may
 * hold (2 or 3 on most cells), g = greens at the start, I = item cells, b = branches of the
 * landing trees of a step's moves (about 6 n_t, more around trampolines, ice and boats).
 * Variables:
 *   pos(x,y,t) the player's cell: N;  act(a,t) the move: 6T (7T with jump items);
 *   done(t) won by t: T (FALSE below the lower bound);  escaped(t) left the window: T (windows only);
 *   m/e/s(k,x,y,t) tile k on a changing cell after the leave / the effect / the second check:
 *     at most 3 T sum k_c;
 *   anyG(t), anyB(t) a green / blue tile remains after the leave (gates after the effect), check(t)
 *     the move left green or blue (blue walls with no blue tile at the start): 3T, plus a support
 *     per cell and step;
 *   events per step (gates): landed, toggle, deice, build, spin, fire per landing cell of those
 *     tiles; sail/moored per boat line; beam(d,x,y,t) per beam state; hit, struck, explode,
 *     destroyed per cell a shot reaches (with orderedHits: ray, first hit, explosion per tree node);
 *   beam ranks: ceil(log2 L) bits per beam state on a loop of L states entering ice, and a support
 *     per origin on the loop;
 *   itm(x,y,t) the item is still there: I T;  anti(k,t), jump(k,t) holds at least k: I T, with an
 *     increment chain per step: I^2 T;  deiced(t) an anti-ice item spent: T;
 *   redundant: lowered(t) (phases): T;  waste(t), blueLeft(t) (budget): 2T, plus the counter's
 *     2T (T - g), and with shotBudget shotGreen(x,y,t) per green a shot may destroy and its credits.
 * Clauses:
 *   actions: some move unless done, none once done, at most one: <= 29 per step; a jump needs an item;
 *   positions: at least one (or escaped), at most one (commander, ~3.5 n_t), frozen once done: n_t;
 *   predecessors: the cell at t is one move from the cell at t - 1: n_t of <= 8 literals;
 *   moves: per (cell, action), refused entries forbidden (2), one per landing branch: ~7 N + sum b;
 *   tiles: per changing cell, phase and tile, its transition (kept, left, lowered, each event, none)
 *     and exactly one: ~4 k_c + k_c^2 / 2;  anyG/anyB/check: two implications per cell each way;
 *   events: their gates, and per affected cell one clause per (event, tile);
 *   beams: beam <-> (fired here, passed over water, refracted by ice); ranks: beam -> some origin of
 *     lower rank, 3 per bit per comparison;  lazy order: per hit laser, explode -> hit, no two
 *     neighbours explode, one of each hit laser and its hit neighbours does;
 *   items: 3 per item cell and step; counters ~4 I per pickup;
 *   no water underfoot: n_t per step;  escape: escaped(t) <-> escaped(t-1) or a leak of step t;
 *   done(t) <-> no green tile or wall (or escaped): g + 3 per step; done(t-1) -> done(t); goal: done(T).
 *   Redundant, each an encoding choice (hexahop.encode-redundant.ts): deadlines, at most N g binary;
 *   budget, n_t + 2 g per step plus the counter's ~4T (T - g); visits, g clauses of T; phases,
 *   ~4 + g per step; returns, at most 6 N ternary; idleSteps, per cell and step at most 6 (1 + 5 k)
 *   of <= 8 literals (k the idle landings a cell may hold).
 * Lazy parts: `refine` cuts explosions out of the game's order and beams a loop of ice holds up;
 * `widen` re-encodes over a wider window when a model leaves it.
 */
import type { CnfFormula, Lit, Model } from '@satfarm/cnf';

import type { EncodeOptions, Encoded } from '../game-definition.js';
import { decodeHexahop } from './hexahop.decode.js';
import { encodeEffects, encodeLeave, encodeSecondCheck } from './hexahop.encode-board.js';
import { encodeBoats } from './hexahop.encode-boats.js';
import {
  hexahopEncodingChoices,
  type HexahopEncodingChoices,
  variantWindow,
} from './hexahop.encode-choices.js';
import { addFolded, FALSE, HexahopEncoding, POSITION, TRUE } from './hexahop.encode-context.js';
import { encodeDone, encodeEscape, encodeNoWater } from './hexahop.encode-goal.js';
import { encodeItems } from './hexahop.encode-items.js';
import { encodeLandingEffects } from './hexahop.encode-landings.js';
import { encodeLasers, encodeLasersInOrder, LaserRecord, laserCuts } from './hexahop.encode-lasers.js';
import { encodeActions, encodeMoves, encodePositions } from './hexahop.encode-moves.js';
import {
  encodeBudget,
  encodeDeadlines,
  encodeIdleSteps,
  encodePhases,
  encodeReturns,
  encodeVisits,
} from './hexahop.encode-redundant.js';
import { unsupportedFeatures } from './hexahop.features.js';
import type { HexahopInstance, HexahopSolution } from './hexahop.model.js';
import { staticsOf } from './hexahop.statics.js';

/**
 * The first window of a level whose tiles may spread over the map: its tiles and the cells within
 * this many steps of them (two spinners rolling each other take a dozen moves or more per step
 * away from the land).
 */
export const WINDOW_START = 2;
/** Per instance, the widest window a model has needed so far: later horizons start there. */
const windowNeeded = new WeakMap<object, number>();

/** Encodes `instance` at horizon `horizon` (see the comment at the top of this file). */
export function encodeHexahop(
  instance: HexahopInstance,
  horizon: number,
  options?: EncodeOptions,
): Encoded<HexahopSolution> {
  const unsupported = unsupportedFeatures(instance);
  if (unsupported.length > 0) throw new RangeError(`unsupported tile types: ${unsupported.join(', ')}`);
  const choices = hexahopEncodingChoices(options);
  let window: number | undefined;
  if (staticsOf(instance).unbounded) {
    window = Math.max(variantWindow(options) ?? WINDOW_START, windowNeeded.get(instance) ?? 0);
  }
  return encodeWith(instance, horizon, choices, window, false);
}

/**
 * The variable "the player stands on (x, y) after step t" (1 <= t <= T) of a formula
 * `encodeHexahop` built, or undefined where the statics rule that out: a literal to split a
 * horizon by (a unit clause of it is a cube).
 */
export function hexahopPositionVariable(
  formula: CnfFormula,
  x: number,
  y: number,
  t: number,
): number | undefined {
  return formula.pool.lookup(POSITION, x, y, t);
}

function encodeWith(
  instance: HexahopInstance,
  horizon: number,
  choices: HexahopEncodingChoices,
  window: number | undefined,
  keepOnMap: boolean,
): Encoded<HexahopSolution> {
  const enc = new HexahopEncoding(instance, horizon, choices, window, keepOnMap);
  const formula = enc.formula;
  formula.comment(`hexahop ${instance.name} T=${horizon}`);
  const lasers = new LaserRecord();
  for (let t = 1; t <= horizon; t++) {
    // The game's order: each part reads the tables and literals the parts before it made.
    const step = enc.beginStep(t);
    encodeActions(enc, t);
    encodePositions(enc, t);
    encodeLeave(enc, t);
    const passes = encodeMoves(enc, step);
    const antiIce = encodeItems(enc, t, passes);
    encodeLandingEffects(enc, step, antiIce);
    if (enc.hitsInOrder) encodeLasersInOrder(enc, step, lasers);
    else encodeLasers(enc, step, lasers);
    encodeBoats(enc, step);
    encodeEffects(enc, step);
    encodeSecondCheck(enc, step);
    encodeNoWater(enc, t);
    encodeEscape(enc, step);
    encodeDone(enc, t);
  }
  const statics = enc.statics;
  if (choices.deadlines) encodeDeadlines(enc);
  if (choices.budget && (statics.laserHit.size === 0 || choices.shotBudget))
    encodeBudget(enc, lasers.greensShot);
  if (choices.visits) encodeVisits(enc);
  if (choices.returns) encodeReturns(enc);
  if (choices.idleSteps) encodeIdleSteps(enc);
  const plain = statics.laserHit.size === 0 && statics.spun.size === 0 && statics.built.size === 0;
  if (choices.phases && enc.withGreenWalls && !enc.withBlueWalls && plain) encodePhases(enc);
  addFolded(formula, [enc.done(horizon)]);
  const holdsIn =
    (model: Model) =>
    (lit: number): boolean =>
      lit === TRUE || (lit !== FALSE && model.value(lit));
  return {
    formula,
    decode: (model) => decodeHexahop(model, formula.pool, instance, horizon),
    refine: (model): Lit[][] | undefined => {
      const cuts = laserCuts(enc, lasers, holdsIn(model));
      return cuts.length > 0 ? cuts : undefined;
    },
    ...(window === undefined ? {} : { widen: (model: Model) => widen(enc, holdsIn(model)) }),
    ...(keepOnMap
      ? {
          unprovenUnsat:
            'no plan keeps every green and blue tile on the map; one that turns one off is not followed',
        }
      : {}),
  };
}

/**
 * A model that leaves the window (escaped(T)) is no plan: it asks for the encoding over a window
 * one step wider, remembered for the instance's later horizons. A green or blue tile (or wall)
 * turned off the map cannot be followed wider: it asks for the encoding without such runs, whose
 * plans are still plans but whose UNSAT proves nothing (`unprovenUnsat`).
 */
function widen(enc: HexahopEncoding, holds: (lit: number) => boolean): Encoded<HexahopSolution> | undefined {
  const { instance, horizon, choices } = enc;
  if (!holds(enc.escaped(horizon))) return undefined;
  const step = enc.leaks.findIndex((list) => list.some((leak) => holds(leak.lit)));
  if (enc.leaks[step]!.some((leak) => leak.offMap && holds(leak.lit)))
    return encodeWith(instance, horizon, choices, enc.window, true);
  const wider = enc.window! + 1;
  windowNeeded.set(instance, Math.max(wider, windowNeeded.get(instance) ?? 0));
  return encodeWith(instance, horizon, choices, wider, enc.keepOnMap);
}
