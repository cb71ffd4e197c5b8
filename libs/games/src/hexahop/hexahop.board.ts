import { type Direction, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { SOLIDITY, Tile } from './hexahop.model.js';

/** The number of tile ids. */
export const TILE_COUNT = 17;

/** The tile a tile becomes when the player steps off it (itself when nothing happens). */
export function leftTile(tile: number): number {
  switch (tile) {
    case Tile.Green:
    case Tile.GreenWall:
      return Tile.Water;
    case Tile.Blue:
      return Tile.Green;
    case Tile.BlueWall:
      return Tile.GreenWall;
    case Tile.DeIced:
      return Tile.Blue;
    default:
      return tile;
  }
}

export function isRaised(tile: number): boolean {
  return SOLIDITY[tile] === 1;
}

/** One way a move can end: under `conds` (all true) the player lands on `path` in turn, and ends on `end` or dies. */
export interface ChainBranch<L> {
  conds: L[];
  /** The cells landed on, in order (an item there is picked up); the last one's tile acts on the board. */
  path: number[];
  /** Where the player ends (the last cell of the path, or where a boat floated to), or death. */
  end: number | 'death';
}

/** The questions a move asks about the board after the old tile was left (and the board checked). */
export interface ChainOracle<L> {
  /** The tiles `cell` may hold (water alone off the map). */
  kinds(cell: number): readonly number[];
  /** "`cell` holds `tile`", for a tile among its kinds. */
  is(cell: number, tile: number): L;
  raised(cell: number): L;
  water(cell: number): L;
  /** "The player holds an anti-ice item" once the items on `landed` (this move's cells so far) are taken. */
  antiIce(landed: readonly number[]): L;
  not(cond: L): L;
  /** A condition known to be false (its branch is dropped). */
  never(cond: L): boolean;
  /** A condition known to be true (left out of the branch). */
  always(cond: L): boolean;
  /**
   * Enter each cell once per move, keeping the first branch that reaches it. For a caller that
   * asks only where a move may end and which cells it may land on, and whose conditions do not
   * depend on the cells landed on before: a line of cells that may each be a trampoline otherwise
   * branches like the Fibonacci numbers.
   */
  readonly enterOnce?: boolean;
}

/**
 * Where a move goes once it enters `cell` (in direction `d`; undefined for a jump in place, which
 * lands on the cell it left), as a decision tree over the board: water drowns; a trampoline
 * throws on by two cells (one when the second is raised, none when the first is; raised tiles do
 * not stop a move that started on a raised tile); ice slides on unless an anti-ice item is spent
 * on it or a raised tile is next; a boat floats on over water until land is next (off the map:
 * lost); every other tile ends the move, acting on the board afterwards.
 */
export function chainBranches<L>(
  cell: number,
  d: Direction | undefined,
  high: boolean,
  oracle: ChainOracle<L>,
): ChainBranch<L>[] {
  const out: ChainBranch<L>[] = [];
  const kindsOf = (c: number): readonly number[] => (c === OFF_MAP ? [Tile.Water] : oracle.kinds(c));
  const extend = (conds: L[], ...more: L[]): L[] | undefined => {
    const next = [...conds];
    for (const m of more) {
      if (oracle.never(m)) return undefined;
      if (!oracle.always(m)) next.push(m);
    }
    return next;
  };
  const entered = new Set<number>();
  const visit = (at: number, conds: L[], landed: number[], depth: number): void => {
    if (depth > 64) throw new Error('a move chains without end');
    if (oracle.enterOnce === true) {
      if (entered.has(at)) return;
      entered.add(at);
    }
    const path = [...landed, at];
    const kinds = kindsOf(at);
    for (const k of kinds) {
      const here = kinds.length === 1 ? conds : extend(conds, oracle.is(at, k));
      if (here === undefined) continue;
      const stop = (...more: L[]): void => {
        const c = extend(here, ...more);
        if (c !== undefined) out.push({ conds: c, path, end: at });
      };
      const go = (next: number, ...more: L[]): void => {
        const c = extend(here, ...more);
        if (c !== undefined) visit(next, c, path, depth + 1);
      };
      if (k === Tile.Water) {
        out.push({ conds: here, path, end: 'death' });
      } else if (k === Tile.Trampoline && d !== undefined) {
        if (high) {
          go(stepFrom(at, d, 2));
          continue;
        }
        const first = oracle.raised(stepFrom(at, d));
        const second = oracle.raised(stepFrom(at, d, 2));
        stop(first);
        go(stepFrom(at, d), oracle.not(first), second);
        go(stepFrom(at, d, 2), oracle.not(first), oracle.not(second));
      } else if (k === Tile.Ice && d !== undefined) {
        const anti = oracle.antiIce(path);
        const ahead = oracle.raised(stepFrom(at, d));
        stop(anti);
        stop(oracle.not(anti), ahead);
        go(stepFrom(at, d), oracle.not(anti), oracle.not(ahead));
      } else if (k === Tile.Boat && d !== undefined) {
        let conds2: L[] | undefined = here;
        for (let q = at; conds2 !== undefined; q = stepFrom(q, d)) {
          const ahead = stepFrom(q, d);
          if (ahead === OFF_MAP) {
            out.push({ conds: conds2, path, end: 'death' });
            break;
          }
          const wet = oracle.water(ahead);
          const land = extend(conds2, oracle.not(wet));
          if (land !== undefined) out.push({ conds: land, path, end: q });
          conds2 = extend(conds2, wet);
        }
      } else {
        stop();
      }
    }
  };
  visit(cell, [], [], 0);
  return out;
}
