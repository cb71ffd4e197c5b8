import {
  addFolded,
  type EncodingStep,
  FALSE,
  GREENISH,
  type HexahopEncoding,
  not,
} from './hexahop.encode-context.js';
import { Tile } from './hexahop.model.js';

/** The player never stands on water after a step (a laser may destroy the tile underfoot). */
export function encodeNoWater(enc: HexahopEncoding, t: number): void {
  for (const c of enc.reachable[t]!)
    addFolded(enc.formula, [not(enc.position(c, t)), not(enc.afterStep(c, Tile.Water, t))]);
}

/**
 * escaped(t) <-> escaped(t - 1) or a leak of step t. A run that leaves the window is done there
 * (encodeDone), so UNSAT stays a proof, and `widen` turns a model that left into a wider window.
 */
export function encodeEscape(enc: HexahopEncoding, step: EncodingStep): void {
  const { t } = step;
  const escaped = enc.escaped(t);
  if (escaped === FALSE) return;
  const causes = [enc.escaped(t - 1), ...step.leaks.map((leak) => leak.lit)];
  addFolded(enc.formula, [-escaped, ...causes]);
  for (const c of causes) addFolded(enc.formula, [not(c), escaped]);
}

/** done(t) <-> no green tile or wall is left (or the run escaped the window); done stays done. */
export function encodeDone(enc: HexahopEncoding, t: number): void {
  const formula = enc.formula;
  const done = enc.done(t);
  const escaped = enc.escaped(t);
  const remaining: number[] = [];
  for (const k of GREENISH) {
    for (const c of enc.statics.cellsThatMayHold(k)) {
      const lit = enc.afterStep(c, k, t);
      addFolded(formula, [not(done), not(lit), escaped]);
      remaining.push(lit);
    }
  }
  addFolded(formula, [done, ...remaining]);
  addFolded(formula, [not(escaped), done]);
  if (t < enc.windowLowerBound) addFolded(formula, [not(done), escaped]);
  addFolded(formula, [not(enc.done(t - 1)), done]);
}
