import { addFolded, FALSE, type HexahopEncoding, JUMP, not, TRUE } from './hexahop.encode-context.js';
import { cellX, cellY } from './hexahop.geometry.js';
import { Tile } from './hexahop.model.js';

export type ItemKind = 'anti' | 'jump';

/** Per item cell, literals "the move lands on the item there on its way" (from encodeMoves). */
export type ItemPasses = Map<number, number[]>;

/** Step t's anti-ice: "one is held once this move's items are taken", and "one was spent". */
export interface AntiIce {
  held: number;
  spent: number;
}

/** "The item on `cell` is still there after step t" (TRUE until the player may land there). */
export function itemThere(enc: HexahopEncoding, cell: number, t: number): number {
  if (t === 0) return TRUE;
  if (enc.statics.firstLanding(cell) > t) return TRUE;
  return enc.formula.pool.named('itm', cellX(cell), cellY(cell), t);
}

/** Unary counter: "the player holds at least k items of `kind`" after step t. */
export function holdsAtLeast(enc: HexahopEncoding, kind: ItemKind, k: number, t: number): number {
  const n = kind === 'anti' ? enc.antiIceCells.length : enc.jumpCells.length;
  if (k <= 0) return TRUE;
  if (k > n || t <= 0) return FALSE;
  return enc.formula.pool.named(kind, k, t);
}

/** "The move of step t lands on `cell` (so it takes the item there)". */
function visit(enc: HexahopEncoding, cell: number, t: number, passes: ItemPasses): number {
  const final = enc.andOf(`final ${cell} ${t}`, [
    enc.position(cell, t),
    enc.moved(t),
    not(enc.afterLeave(cell, Tile.Water, t)),
  ]);
  return enc.orOf(`visit ${cell} ${t}`, [final, ...(passes.get(cell) ?? [])]);
}

/**
 * Items picked up at step t and the counts held after it; a jump spends a jump item. Returns the
 * anti-ice literals the landing on ice reads, on levels with anti-ice items.
 */
export function encodeItems(enc: HexahopEncoding, t: number, passes: ItemPasses): AntiIce | undefined {
  const formula = enc.formula;
  const picks = new Map<number, number>();
  for (const c of [...enc.antiIceCells, ...enc.jumpCells]) {
    if (enc.statics.firstLanding(c) > t) continue;
    const before = itemThere(enc, c, t - 1);
    const now = itemThere(enc, c, t);
    const visited = visit(enc, c, t, passes);
    addFolded(formula, [not(now), before]);
    addFolded(formula, [not(now), not(visited)]);
    addFolded(formula, [not(before), visited, now]);
    picks.set(c, enc.andOf(`pick ${c} ${t}`, [before, visited]));
  }
  let antiIce: AntiIce | undefined;
  if (enc.antiIceCells.length > 0) {
    const gained = countAfterPickups(enc, 'anti', t, enc.antiIceCells, picks, FALSE);
    const spent = formula.pool.named('deiced', t);
    antiIce = { held: gained(1), spent };
    for (let k = 1; k <= enc.antiIceCells.length; k++) {
      const now = holdsAtLeast(enc, 'anti', k, t);
      const more = enc.orOf(`anti ${k + 1} or ${t}`, [
        gained(k + 1),
        enc.andOf(`anti ${k} kept ${t}`, [gained(k), not(spent)]),
      ]);
      addFolded(formula, [not(now), more]);
      addFolded(formula, [now, not(more)]);
    }
  }
  if (enc.jumpCells.length > 0) {
    const jumped = enc.action(JUMP, t);
    const gained = countAfterPickups(enc, 'jump', t, enc.jumpCells, picks, jumped);
    for (let k = 1; k <= enc.jumpCells.length; k++) {
      const now = holdsAtLeast(enc, 'jump', k, t);
      const got = gained(k);
      addFolded(formula, [not(now), got]);
      addFolded(formula, [now, not(got)]);
    }
  }
  return antiIce;
}

/**
 * The count of `kind` items after step t's pickups (one spent first when `spent`): a unary
 * count built by one increment per item cell the move may land on.
 */
function countAfterPickups(
  enc: HexahopEncoding,
  kind: ItemKind,
  t: number,
  cells: number[],
  picks: Map<number, number>,
  spent: number,
): (k: number) => number {
  const n = cells.length;
  let count = (k: number): number =>
    spent === FALSE
      ? holdsAtLeast(enc, kind, k, t - 1)
      : enc.orOf(`${kind} spent ${k} ${t}`, [
          holdsAtLeast(enc, kind, k + 1, t - 1),
          enc.andOf(`${kind} unspent ${k} ${t}`, [holdsAtLeast(enc, kind, k, t - 1), not(spent)]),
        ]);
  for (const c of cells) {
    const pick = picks.get(c);
    if (pick === undefined || pick === FALSE) continue;
    const previous = count;
    const rows = new Map<number, number>();
    for (let k = 1; k <= n; k++) {
      rows.set(
        k,
        enc.orOf(`${kind} plus ${c} ${k} ${t}`, [
          previous(k),
          enc.andOf(`${kind} up ${c} ${k} ${t}`, [previous(k - 1), pick]),
        ]),
      );
    }
    count = (k: number): number => (k <= 0 ? TRUE : k > n ? FALSE : rows.get(k)!);
  }
  const final = count;
  return (k: number): number => (k <= 0 ? TRUE : k > n ? FALSE : final(k));
}
