import { leftTile } from './hexahop.board.js';
import {
  addFolded,
  type EncodingStep,
  FALSE,
  type HexahopEncoding,
  not,
  type TileTable,
  TRUE,
} from './hexahop.encode-context.js';
import { Tile } from './hexahop.model.js';

/*
 * The tile tables of a step, phase by phase: the leave and its board check (leaveTables), the
 * events of the final tile (effectTables), and the board check after builders and lasers
 * (stepTables). Each phase gives fresh rows only to the cells it may change.
 */

/**
 * Phase 1: the old tile changes as it is left (leftTile), and the board check lowers the green
 * walls where no green is left and turns blue walls green where no blue is left.
 */
export function encodeLeave(enc: HexahopEncoding, t: number): void {
  const formula = enc.formula;
  const previous = enc.stepTables[t - 1]!;
  const table: TileTable = new Map(previous);
  enc.leaveTables.push(table);
  for (const c of enc.changesWhenLeft) table.set(c, enc.freshRow('m', c, t));
  const doneBefore = enc.done(t - 1);
  const anyGreen = enc.withGreenWalls ? formula.pool.named('anyG', t) : FALSE;
  const anyBlue = enc.withBlueWalls ? formula.pool.named('anyB', t) : FALSE;
  const check = enc.blueWallsWaitForCheck ? firstCheck(enc, t) : TRUE;
  for (const c of enc.changesWhenLeft) {
    const left = enc.position(c, t - 1);
    const next = (k: number): number => enc.tile(table, c, k);
    for (const k of enc.statics.kindsBy(c, t - 1)) {
      const was = enc.tile(previous, c, k);
      if (was === FALSE) continue;
      addFolded(formula, [not(was), not(doneBefore), next(k)]);
      addFolded(formula, [not(was), not(left), doneBefore, next(leftTile(k))]);
      if (k === Tile.GreenWall) {
        addFolded(formula, [not(was), left, doneBefore, anyGreen, next(Tile.Green)]);
        addFolded(formula, [not(was), left, not(anyGreen), next(k)]);
      } else if (k === Tile.BlueWall) {
        addFolded(formula, [not(was), left, doneBefore, anyBlue, not(check), next(Tile.Blue)]);
        addFolded(formula, [not(was), left, not(anyBlue), next(k)]);
        addFolded(formula, [not(was), left, check, next(k)]);
      } else {
        addFolded(formula, [not(was), left, next(k)]);
      }
    }
    enc.exactlyOne(table.get(c)!);
  }
  if (enc.withGreenWalls) defineRemains(enc, anyGreen, t, Tile.Green, [Tile.Blue]);
  if (enc.withBlueWalls) defineRemains(enc, anyBlue, t, Tile.Blue, [Tile.DeIced]);
}

/**
 * `remains` <-> a tile `kind` is on the board once the player has left the old tile: one not
 * left, or one that leaving makes (from `makers`).
 */
function defineRemains(
  enc: HexahopEncoding,
  remains: number,
  t: number,
  kind: number,
  makers: number[],
): void {
  const formula = enc.formula;
  const support: number[] = [];
  const cells = enc.statics
    .cellsThatMayHold(kind)
    .concat(...makers.map((k) => enc.statics.cellsThatMayHold(k)));
  for (const c of new Set(cells)) {
    const left = enc.position(c, t - 1);
    const stays = enc.afterStep(c, kind, t - 1);
    if (stays !== FALSE) {
      addFolded(formula, [not(stays), left, remains]);
      support.push(enc.implyingBoth(stays, not(left)));
    }
    for (const k of makers) {
      const made = enc.afterStep(c, k, t - 1);
      if (made === FALSE) continue;
      addFolded(formula, [not(made), not(left), remains]);
      support.push(enc.implyingBoth(made, left));
    }
  }
  addFolded(formula, [-remains, ...new Set(support)]);
}

/** "The move of step t leaves a green or blue tile" (the game then checks the board). */
function firstCheck(enc: HexahopEncoding, t: number): number {
  const formula = enc.formula;
  const check = formula.pool.named('check', t);
  const support: number[] = [];
  for (const c of enc.reachable[t - 1]!) {
    const left = enc.position(c, t - 1);
    for (const k of [Tile.Green, Tile.Blue]) {
      const was = enc.afterStep(c, k, t - 1);
      addFolded(formula, [not(left), not(was), check]);
      support.push(enc.implyingBoth(left, was));
    }
  }
  addFolded(formula, [-check, ...support]);
  return check;
}

/** Phase 2: each event of the step maps its cell's tile; a cell no event touches keeps it. */
export function encodeEffects(enc: HexahopEncoding, step: EncodingStep): void {
  const { t, events } = step;
  const formula = enc.formula;
  const leave = enc.leaveTables[t]!;
  const table: TileTable = new Map(leave);
  enc.effectTables.push(table);
  for (const c of events.keys()) table.set(c, enc.freshRow('e', c, t));
  for (const [c, list] of events) {
    if (!enc.changesByEffect.has(c)) throw new Error(`cell ${c} changes by an effect the analysis missed`);
    for (const event of list) {
      const source = event.from ?? c;
      for (const k of enc.statics.kindsBy(source, t)) {
        const was = enc.tile(leave, source, k);
        if (was === FALSE) continue;
        addFolded(formula, [
          not(event.lit),
          not(was),
          enc.tile(table, c, event.to === undefined ? k : event.to(k)),
        ]);
      }
    }
  }
  for (const [c, list] of events) {
    const touched = enc.orOf(
      `touched ${c} ${t}`,
      list.map((event) => event.lit),
    );
    for (const k of enc.statics.kindsBy(c, t)) {
      const was = enc.tile(leave, c, k);
      if (was === FALSE) continue;
      addFolded(formula, [not(was), touched, enc.tile(table, c, k)]);
    }
    enc.exactlyOne(table.get(c)!);
  }
}

/** Phase 3: after a builder or a laser, the game checks the board again, as in phase 1. */
export function encodeSecondCheck(enc: HexahopEncoding, step: EncodingStep): void {
  const { t, secondChecks } = step;
  const formula = enc.formula;
  const effect = enc.effectTables[t]!;
  const table: TileTable = new Map(effect);
  enc.stepTables.push(table);
  if (enc.changesBySecondCheck.size === 0 || secondChecks.length === 0) return;
  for (const c of enc.changesBySecondCheck) table.set(c, enc.freshRow('s', c, t));
  const doneBefore = enc.done(t - 1);
  const anyGreen = enc.withGreenWalls ? remainsAfterEffect(enc, t, Tile.Green) : TRUE;
  const anyBlue = enc.withBlueWalls ? remainsAfterEffect(enc, t, Tile.Blue) : TRUE;
  const check = enc.blueWallsWaitForCheck ? enc.orOf(`check2 ${t}`, secondChecks) : TRUE;
  for (const c of enc.changesBySecondCheck) {
    const next = (k: number): number => enc.tile(table, c, k);
    for (const k of enc.statics.kindsBy(c, t)) {
      const was = enc.tile(effect, c, k);
      if (was === FALSE) continue;
      addFolded(formula, [not(was), not(doneBefore), next(k)]);
      if (k === Tile.GreenWall) {
        addFolded(formula, [not(was), doneBefore, anyGreen, next(Tile.Green)]);
        addFolded(formula, [not(was), not(anyGreen), next(k)]);
      } else if (k === Tile.BlueWall) {
        addFolded(formula, [not(was), doneBefore, anyBlue, not(check), next(Tile.Blue)]);
        addFolded(formula, [not(was), not(anyBlue), next(k)]);
        addFolded(formula, [not(was), check, next(k)]);
      } else {
        addFolded(formula, [not(was), next(k)]);
      }
    }
    enc.exactlyOne(table.get(c)!);
  }
}

function remainsAfterEffect(enc: HexahopEncoding, t: number, kind: number): number {
  return enc.orOf(
    `remains ${kind} ${t}`,
    enc.statics.cellsThatMayHold(kind).map((c) => enc.afterEffect(c, kind, t)),
  );
}
