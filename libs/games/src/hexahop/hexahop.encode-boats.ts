import type { EncodingStep, HexahopEncoding } from './hexahop.encode-context.js';
import { DIRECTIONS, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { Tile } from './hexahop.model.js';

/**
 * A boat the player lands on floats in the direction of travel until land is next: its cell turns
 * to water when it sails, and the water it stops on turns to a boat.
 */
export function encodeBoats(enc: HexahopEncoding, step: EncodingStep): void {
  const { t } = step;
  const statics = enc.statics;
  const boats = statics
    .cellsThatMayHold(Tile.Boat)
    .filter((c) => statics.firstLanding(c) <= t && statics.kindsBy(c, t).includes(Tile.Boat));
  for (const c of boats) {
    const departures: number[] = [];
    for (const d of DIRECTIONS) {
      const wet: number[] = [];
      for (
        let q = stepFrom(c, d);
        q !== OFF_MAP && statics.kindsBy(q, t).includes(Tile.Water);
        q = stepFrom(q, d)
      ) {
        wet.push(enc.afterLeave(q, Tile.Water, t));
        if (!enc.mayStandOn(q, t)) continue;
        departures.push(
          enc.andOf(`sail ${c} ${q} ${t}`, [
            enc.action(d, t),
            enc.position(q, t),
            enc.moved(t),
            enc.afterLeave(c, Tile.Boat, t),
            ...wet,
          ]),
        );
      }
    }
    enc.addEvent(step, c, {
      lit: enc.orOf(`sailed ${c} ${t}`, departures),
      to: (k) => (k === Tile.Boat ? Tile.Water : k),
    });
  }
  for (const q of enc.reachable[t]!) {
    if (!statics.kindsBy(q, t).includes(Tile.Water) || !statics.kindsBy(q, t).includes(Tile.Boat)) continue;
    const arrived = enc.andOf(`moored ${q} ${t}`, [enc.landedOn(q, t), enc.afterLeave(q, Tile.Water, t)]);
    enc.addEvent(step, q, { lit: arrived, to: (k) => (k === Tile.Water ? Tile.Boat : k) });
  }
}
