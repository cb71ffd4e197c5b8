import { cellIndex, type Direction, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { type HexahopInstance, Tile } from './hexahop.model.js';

/** The states a green-family cell (green, blue, and their walls) passes through. */
export const GreenKind = { Water: 'W', Green: 'G', GreenWall: 'GW', Blue: 'B', BlueWall: 'BW' } as const;
export type GreenKind = (typeof GreenKind)[keyof typeof GreenKind];

/** How a cell can change during play (with the tiles the encoding supports). */
export type CellClass = 'water' | 'fixed' | 'green' | 'lift';

const KINDS_FROM: Partial<Record<number, GreenKind[]>> = {
  [Tile.Green]: ['W', 'G'],
  [Tile.GreenWall]: ['W', 'G', 'GW'],
  [Tile.Blue]: ['W', 'G', 'B'],
  [Tile.BlueWall]: ['W', 'G', 'GW', 'B', 'BW'],
};

/** The kind a green-family tile starts as. */
export const KIND_OF_TILE: Partial<Record<number, GreenKind>> = {
  [Tile.Green]: 'G',
  [Tile.GreenWall]: 'GW',
  [Tile.Blue]: 'B',
  [Tile.BlueWall]: 'BW',
};

/** One way a move can end: under `conds` (all true), the player lands on `land` or dies. */
export interface LandingBranch<L> {
  conds: L[];
  land: number | 'death';
}

/** The questions a landing asks about the board during the move. */
export interface LandingOracle<L> {
  /** Whether `cell` is raised when the player is thrown past or into it. */
  raised(cell: number): L;
  /** Whether `cell` is water when the player lands on it. */
  water(cell: number): L;
  /** The condition's negation. */
  not(cond: L): L;
}

/**
 * The static view of a level for the encoding: which cells can change and how, and where a
 * move lands (trampolines and ice resolved along the line of travel into a decision tree over
 * the dynamic cells it passes).
 */
export class HexahopBoard {
  /** Every cell that is not water at the start. */
  readonly cells: number[] = [];
  readonly start: number;
  private readonly initial: Uint8Array;

  constructor(instance: Pick<HexahopInstance, 'tiles' | 'start'>) {
    this.initial = Uint8Array.from(instance.tiles);
    this.start = cellIndex(instance.start[0], instance.start[1]);
    for (let c = 0; c < this.initial.length; c++) if (this.initial[c] !== Tile.Water) this.cells.push(c);
  }

  tile(cell: number): number {
    return cell === OFF_MAP ? Tile.Water : this.initial[cell]!;
  }

  classOf(cell: number): CellClass {
    const t = this.tile(cell);
    if (t === Tile.Water) return 'water';
    if (KINDS_FROM[t] !== undefined) return 'green';
    if (t === Tile.LiftDown || t === Tile.LiftUp) return 'lift';
    return 'fixed';
  }

  /** The kinds a green-family cell can take over the game (empty for other cells). */
  kinds(cell: number): readonly GreenKind[] {
    return KINDS_FROM[this.tile(cell)] ?? [];
  }

  /** Cells of a fixed class that are raised (stone walls). */
  fixedRaised(cell: number): boolean {
    return this.tile(cell) === Tile.Stone;
  }

  /**
   * Where the player goes after entering `cell` in direction `d` (the entry itself already
   * allowed), given whether the move started on a raised tile. Trampolines throw on (their
   * collision test waived when the move started raised), ice slides on (blocked by any raised
   * tile), water kills; every other tile ends the move.
   */
  landing<L>(cell: number, d: Direction, high: boolean, oracle: LandingOracle<L>): LandingBranch<L>[] {
    const out: LandingBranch<L>[] = [];
    const visit = (at: number, conds: L[]): void => {
      const t = this.tile(at);
      if (at === OFF_MAP || t === Tile.Water) {
        out.push({ conds, land: 'death' });
      } else if (t === Tile.Trampoline) {
        if (high) return visit(stepFrom(at, d, 2), conds);
        const first = oracle.raised(stepFrom(at, d));
        const second = oracle.raised(stepFrom(at, d, 2));
        out.push({ conds: [...conds, first], land: at });
        visit(stepFrom(at, d), [...conds, oracle.not(first), second]);
        visit(stepFrom(at, d, 2), [...conds, oracle.not(first), oracle.not(second)]);
      } else if (t === Tile.Ice) {
        const ahead = oracle.raised(stepFrom(at, d));
        out.push({ conds: [...conds, ahead], land: at });
        visit(stepFrom(at, d), [...conds, oracle.not(ahead)]);
      } else if (this.classOf(at) === 'green') {
        const water = oracle.water(at);
        out.push({ conds: [...conds, water], land: 'death' });
        out.push({ conds: [...conds, oracle.not(water)], land: at });
      } else {
        out.push({ conds, land: at });
      }
    };
    visit(cell, []);
    return out;
  }
}
