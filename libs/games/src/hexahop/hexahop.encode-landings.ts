import {
  addFolded,
  type EncodingStep,
  GREENISH,
  type HexahopEncoding,
  JUMP,
  not,
} from './hexahop.encode-context.js';
import type { AntiIce } from './hexahop.encode-items.js';
import { type Direction, DIRECTIONS, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { Tile } from './hexahop.model.js';

const LIFTS = [Tile.LiftDown, Tile.LiftUp] as const;

/**
 * The events of the tile a move ends on: lifts toggle and ice is de-iced (with an anti-ice item)
 * under the player; builders and spinners change the neighbours.
 */
export function encodeLandingEffects(
  enc: HexahopEncoding,
  step: EncodingStep,
  antiIce: AntiIce | undefined,
): void {
  const { t } = step;
  const statics = enc.statics;
  const uses: number[] = [];
  for (const c of enc.reachable[t]!) {
    const kinds = statics.kindsBy(c, t);
    if (kinds.some((k) => k === Tile.LiftDown || k === Tile.LiftUp)) {
      const lift = enc.orOf(
        `lift ${c} ${t}`,
        LIFTS.map((k) => enc.afterLeave(c, k, t)),
      );
      const toggle = enc.andOf(`toggle ${c} ${t}`, [enc.landedOn(c, t), lift]);
      enc.addEvent(step, c, {
        lit: toggle,
        to: (k) => (k === Tile.LiftUp ? Tile.LiftDown : k === Tile.LiftDown ? Tile.LiftUp : k),
      });
    }
    if (kinds.includes(Tile.Ice) && antiIce !== undefined) {
      const deice = enc.andOf(`deice ${c} ${t}`, [
        enc.landedOn(c, t),
        enc.afterLeave(c, Tile.Ice, t),
        not(enc.action(JUMP, t)),
        antiIce.held,
      ]);
      uses.push(deice);
      enc.addEvent(step, c, { lit: deice, to: (k) => (k === Tile.Ice ? Tile.DeIced : k) });
    }
    if (kinds.includes(Tile.Builder)) {
      const build = enc.andOf(`build ${c} ${t}`, [enc.landedOn(c, t), enc.afterLeave(c, Tile.Builder, t)]);
      step.secondChecks.push(build);
      for (const d of DIRECTIONS) {
        const n = stepFrom(c, d);
        if (n === OFF_MAP) continue;
        if (enc.window !== undefined && !statics.inWindow(n)) enc.addLeak(step, build);
        enc.addEvent(step, n, {
          lit: build,
          to: (k) => (k === Tile.Water ? Tile.Green : k === Tile.Green ? Tile.GreenWall : k),
        });
      }
    }
    if (kinds.includes(Tile.Spinner)) encodeSpinner(enc, step, c);
  }
  if (antiIce !== undefined) {
    addFolded(enc.formula, [-antiIce.spent, ...uses]);
    for (const u of uses) addFolded(enc.formula, [not(u), antiIce.spent]);
  }
}

/** A spinner turns its six neighbours one place clockwise: each takes the tile of the one before it. */
function encodeSpinner(enc: HexahopEncoding, step: EncodingStep, c: number): void {
  const { t } = step;
  const spin = enc.andOf(`spin ${c} ${t}`, [enc.landedOn(c, t), enc.afterLeave(c, Tile.Spinner, t)]);
  for (const d of DIRECTIONS) {
    const n = stepFrom(c, d);
    const from = stepFrom(c, ((d + 5) % 6) as Direction);
    if (enc.window !== undefined && !enc.statics.inWindow(n)) {
      // Off the map a tile is lost, as in the game, unless a board check would have to notice it
      // (green and blue tiles and walls): that case is left out, as a leak.
      const lost: readonly number[] | undefined =
        n === OFF_MAP ? [...GREENISH, Tile.Blue, Tile.BlueWall] : undefined;
      const kinds = enc.statics.kindsBy(from, t).filter((k) => (lost ? lost.includes(k) : k !== Tile.Water));
      const tile = enc.orOf(
        `spun out ${lost ? 'lost' : 'any'} ${from} ${t}`,
        kinds.map((k) => enc.afterLeave(from, k, t)),
      );
      enc.addLeak(step, enc.andOf(`spin out ${c} ${d} ${t}`, [spin, tile]), n === OFF_MAP);
    }
    if (n === OFF_MAP) continue;
    enc.addEvent(step, n, { lit: spin, from });
  }
}
