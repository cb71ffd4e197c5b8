import {
  atMostOneFolded,
  addFolded,
  FALSE,
  type HexahopEncoding,
  JUMP,
  not,
  TRUE,
  type EncodingStep,
} from './hexahop.encode-context.js';
import { holdsAtLeast, itemThere, type ItemPasses } from './hexahop.encode-items.js';
import { chainBranches, type ChainOracle } from './hexahop.board.js';
import { type Direction, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { Tile } from './hexahop.model.js';

/** One action per step until done, none after; a jump needs a jump item. */
export function encodeActions(enc: HexahopEncoding, t: number): void {
  const formula = enc.formula;
  const actions = Array.from({ length: enc.actionCount }, (_, a) => enc.action(a, t));
  const doneBefore = enc.done(t - 1);
  addFolded(formula, [doneBefore, ...actions]);
  for (const a of actions) addFolded(formula, [not(doneBefore), -a]);
  atMostOneFolded(formula, actions, 'pairwise');
  if (enc.actionCount > JUMP)
    addFolded(formula, [not(enc.action(JUMP, t)), holdsAtLeast(enc, 'jump', 1, t - 1)]);
}

/** One cell after step t (or none, once a boat carried the player out of the window); frozen once done. */
export function encodePositions(enc: HexahopEncoding, t: number): void {
  const formula = enc.formula;
  const here = enc.reachable[t]!.map((c) => enc.position(c, t));
  addFolded(formula, [...here, enc.escaped(t)]);
  atMostOneFolded(formula, here, 'auto');
  const doneBefore = enc.done(t - 1);
  if (doneBefore !== FALSE) {
    for (const c of enc.reachable[t - 1]!)
      addFolded(formula, [not(doneBefore), not(enc.position(c, t - 1)), enc.position(c, t)]);
  }
  if (!enc.choices.predecessors) return;
  // Redundant: the cells one move away are the only way here.
  for (const c of enc.reachable[t]!) {
    const from = enc.statics.previous(c).map((p) => enc.position(p, t - 1));
    const stay = doneBefore === FALSE ? FALSE : enc.position(c, t - 1);
    addFolded(formula, [not(enc.position(c, t)), stay, ...from]);
  }
}

/** The questions of chainBranches, answered by the literals of the board after step t's leave. */
function chainOracle(enc: HexahopEncoding, t: number): ChainOracle<number> {
  const table = enc.leaveTables[t]!;
  const itemCells = (landed: readonly number[]): number[] =>
    landed.filter((c) => enc.antiIceCells.includes(c));
  return {
    kinds: (c) => enc.statics.kindsBy(c, t),
    is: (c, k) => enc.tile(table, c, k),
    raised: (c) => (c === OFF_MAP ? FALSE : enc.raisedIn(table, c, `m ${t}`)),
    water: (c) => enc.tile(table, c, Tile.Water),
    antiIce: (landed) =>
      enc.orOf(`anti ${t} ${itemCells(landed).join(' ')}`, [
        holdsAtLeast(enc, 'anti', 1, t - 1),
        ...itemCells(landed).map((c) => itemThere(enc, c, t - 1)),
      ]),
    not,
    never: (l) => l === FALSE,
    always: (l) => l === TRUE,
  };
}

/**
 * Per cell and action of step t: a refused move (onto water, or up onto a raised tile from a low
 * one) is forbidden, and each landing branch ends where it says or is forbidden (death). Returns
 * the item cells each branch lands on on its way, for encodeItems.
 */
export function encodeMoves(enc: HexahopEncoding, step: EncodingStep): ItemPasses {
  const { t } = step;
  const formula = enc.formula;
  const oracle = chainOracle(enc, t);
  const before = enc.stepTables[t - 1]!;
  const items = new Set([...enc.antiIceCells, ...enc.jumpCells]);
  const passes: ItemPasses = new Map();
  for (const p of enc.reachable[t - 1]!) {
    const at = enc.position(p, t - 1);
    const high = enc.raisedIn(before, p, `s ${t - 1}`);
    for (let a = 0; a < enc.actionCount; a++) {
      const base = [not(at), -enc.action(a, t)];
      const d = a === JUMP ? undefined : (a as Direction);
      const q = d === undefined ? p : stepFrom(p, d);
      if (d !== undefined) {
        if (enc.tile(before, q, Tile.Water) === TRUE) {
          addFolded(formula, base);
          continue;
        }
        addFolded(formula, [...base, not(enc.tile(before, q, Tile.Water))]);
        addFolded(formula, [...base, high, not(enc.raisedIn(before, q, `s ${t - 1}`))]);
      }
      for (const fromHigh of [true, false]) {
        const startsHigh = fromHigh ? high : not(high);
        if (startsHigh === FALSE) continue;
        for (const branch of chainBranches(q, d, fromHigh, oracle)) {
          const conds = [not(at), -enc.action(a, t), not(startsHigh), ...branch.conds.map(not)];
          if (branch.end !== 'death' && !enc.statics.inWindow(branch.end)) {
            const out = enc.andOf(
              `out ${t} ${p} ${a} ${fromHigh} ${branch.conds.join(' ')} ${branch.end}`,
              conds.map(not),
            );
            enc.addLeak(step, out);
            continue;
          }
          const end = branch.end === 'death' ? [] : [enc.position(branch.end, t)];
          addFolded(formula, [...conds, ...end]);
          if (branch.end === 'death') continue;
          // A boat that floated carries the player away from the cell landed on.
          const landedOn = branch.path.at(-1) === branch.end ? branch.path.slice(0, -1) : branch.path;
          const passed = landedOn.filter((c) => items.has(c));
          if (passed.length === 0) continue;
          const lit = enc.andOf(
            `branch ${t} ${p} ${a} ${fromHigh} ${branch.conds.join(' ')} ${branch.end}`,
            conds.map(not),
          );
          for (const c of passed) {
            let list = passes.get(c);
            if (list === undefined) passes.set(c, (list = []));
            list.push(lit);
          }
        }
      }
    }
  }
  return passes;
}
