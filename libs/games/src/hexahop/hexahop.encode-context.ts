import { atMostOne, CnfFormula, type EncodingSink } from '@satfarm/cnf';

import { isRaised, leftTile, TILE_COUNT } from './hexahop.board.js';
import type { HexahopEncodingChoices } from './hexahop.encode-choices.js';
import { cellX, cellY, OFF_MAP } from './hexahop.geometry.js';
import { hexahopLowerBound } from './hexahop.lower-bound.js';
import { type HexahopInstance, Tile } from './hexahop.model.js';
import { type HexahopStatics, staticsOf } from './hexahop.statics.js';

/** Constant literals: the statics decide many tiles and positions, and clauses fold these away. */
export const TRUE = Number.POSITIVE_INFINITY;
export const FALSE = 0;
/** The action index of a jump in place, after the six directions. */
export const JUMP = 6;
export const GREENISH = [Tile.Green, Tile.GreenWall] as const;
/** The name of the variables pos(x, y, t) in an encoding's pool. */
export const POSITION = 'pos';

export function not(lit: number): number {
  return lit === TRUE ? FALSE : lit === FALSE ? TRUE : -lit;
}

/** Adds a clause that may hold the constants: none if one is TRUE, without the FALSE ones. */
export function addFolded(sink: EncodingSink, lits: readonly number[]): void {
  if (lits.includes(TRUE)) return;
  sink.add(lits.filter((l) => l !== FALSE));
}

/** At most one of `lits`, which may hold the constants. */
export function atMostOneFolded(
  sink: EncodingSink,
  lits: readonly number[],
  encoding: 'pairwise' | 'auto',
): void {
  const live = lits.filter((l) => l !== FALSE && l !== TRUE);
  const constantTrue = lits.length - live.length - lits.filter((l) => l === FALSE).length;
  if (constantTrue > 1) sink.add([]);
  else if (constantTrue === 1) for (const l of live) sink.add([-l]);
  else atMostOne(sink, live, encoding);
}

/** Per cell that may change in a phase, one literal per tile id (FALSE for tiles it cannot hold then). */
export type TileTable = Map<number, number[]>;

/** A change the final tile of a move makes to a cell: its tile maps by `to`, or it takes `from`'s tile. */
export interface CellEvent {
  lit: number;
  to?: (tile: number) => number;
  from?: number;
}

/** A way a step leaves the window: a tile or the player put outside it, or a tile turned off the map. */
export interface Leak {
  lit: number;
  offMap: boolean;
}

/**
 * What the parts of one step hand each other. Each step gets a fresh one: the landings, lasers
 * and boats add the events the effect phase applies, and the second board check follows the
 * events in `secondChecks`.
 */
export interface EncodingStep {
  readonly t: number;
  /** Per cell, the events that change it in the effect phase. */
  readonly events: Map<number, CellEvent[]>;
  /** The events after which the game checks the board again (builders, lasers). */
  readonly secondChecks: number[];
  /** The events that leave the window (see encodeEscape). */
  readonly leaks: Leak[];
}

/**
 * What every part of one encoding shares: the formula, the level's statics, the tile tables of
 * the steps encoded so far, and the literals over them. The tables grow one step at a time, in the
 * order of the phases (hexahop.encode-board.ts).
 */
export class HexahopEncoding {
  readonly formula = new CnfFormula();
  readonly statics: HexahopStatics;
  /** Per step t, the cells the player may stand on after it. */
  readonly reachable: number[][] = [];
  private readonly reachableSets: Set<number>[] = [];
  /** Cells that may hold more than one tile. */
  readonly changingCells: number[];
  readonly initialTiles: Uint8Array;
  /** No win before this step (done is FALSE below it). */
  readonly lowerBound: number;
  /** With a window: no run that stays inside it wins before this step. */
  readonly windowLowerBound: number;
  /** 6 directions, and a jump in place where a jump item may be taken. */
  readonly actionCount: number;
  readonly withGreenWalls: boolean;
  readonly withBlueWalls: boolean;
  /** Blue walls with no blue tile at the start: they stay until the first board check. */
  readonly blueWallsWaitForCheck: boolean;
  readonly changesWhenLeft = new Set<number>();
  readonly changesByEffect = new Set<number>();
  readonly changesBySecondCheck = new Set<number>();
  /** Hits are encoded in the game's order through the tree of beams of each shot. */
  readonly hitsInOrder: boolean;
  /** One shot may hit two neighbouring lasers, and `refine` puts the explosions in the game's order. */
  readonly lazyOrder: boolean;
  /** Anti-ice and jump items on cells the player may land on. */
  readonly antiIceCells: number[];
  readonly jumpCells: number[];
  /** Per step: the state after it. Index 0 of each table list is the start. */
  readonly stepTables: TileTable[] = [];
  /** Per step: the board after the leave and its check. */
  readonly leaveTables: TileTable[] = [];
  /** Per step: the board after the final tile acted. */
  readonly effectTables: TileTable[] = [];
  /** Per step (index t - 1): its leaks. */
  readonly leaks: Leak[][] = [];
  private readonly gates = new Map<string, number>();

  constructor(
    readonly instance: HexahopInstance,
    readonly horizon: number,
    readonly choices: HexahopEncodingChoices,
    /** The window's radius, on levels whose tiles may spread over the map (see `widen`). */
    readonly window: number | undefined,
    /** Runs that turn a green or blue tile or wall off the map are left out (see `widen`). */
    readonly keepOnMap: boolean,
  ) {
    const statics = staticsOf(instance, choices.timedReach, window);
    this.statics = statics;
    this.initialTiles = Uint8Array.from(instance.tiles);
    for (let t = 0; t <= horizon; t++) {
      const cells = statics.cellsBy(t);
      this.reachable.push(cells);
      this.reachableSets.push(new Set(cells));
    }
    this.changingCells = [];
    for (let c = 0; c < this.initialTiles.length; c++)
      if (statics.kinds(c).length > 1) this.changingCells.push(c);
    this.withGreenWalls = statics.cellsThatMayHold(Tile.GreenWall).length > 0;
    this.withBlueWalls = statics.cellsThatMayHold(Tile.BlueWall).length > 0;
    this.blueWallsWaitForCheck =
      this.withBlueWalls &&
      statics.cellsThatMayHold(Tile.Blue).every((c) => this.initialTiles[c] !== Tile.Blue);
    const reachableEver = (c: number): boolean => statics.firstArrival(c) < Number.POSITIVE_INFINITY;
    const landable = (c: number): boolean => statics.firstLanding(c) < Number.POSITIVE_INFINITY;
    const withSecondCheck = [Tile.Builder, Tile.Laser].some((k) =>
      statics.cellsThatMayHold(k).some(reachableEver),
    );
    for (const c of this.changingCells) {
      const kinds = statics.kinds(c);
      const walls = kinds.includes(Tile.GreenWall) || kinds.includes(Tile.BlueWall);
      if (walls || (reachableEver(c) && kinds.some((k) => leftTile(k) !== k))) this.changesWhenLeft.add(c);
      if (walls && withSecondCheck) this.changesBySecondCheck.add(c);
      const byLanding =
        reachableEver(c) &&
        (kinds.some((k) => k === Tile.LiftDown || k === Tile.LiftUp) ||
          (kinds.includes(Tile.Ice) && statics.antiItems.length > 0));
      if (
        byLanding ||
        statics.built.has(c) ||
        statics.spun.has(c) ||
        statics.laserHit.has(c) ||
        statics.boated.has(c)
      )
        this.changesByEffect.add(c);
    }
    this.antiIceCells = statics.antiItems.filter(landable);
    this.jumpCells = statics.jumpItems.filter(landable);
    this.actionCount = this.jumpCells.length > 0 ? 7 : 6;
    // Out of the window the run stops (done) before any bound on a win holds: the bound over the
    // window's statics holds for the runs that stay inside (windowLowerBound).
    this.lowerBound = window === undefined ? hexahopLowerBound(instance) : 1;
    this.windowLowerBound = window === undefined ? 0 : hexahopLowerBound(instance, statics);
    const start: TileTable = new Map();
    for (const c of this.changingCells) {
      const row = new Array<number>(TILE_COUNT).fill(FALSE);
      row[this.initialTiles[c]!] = TRUE;
      start.set(c, row);
    }
    this.stepTables.push(start);
    this.leaveTables.push(start);
    this.effectTables.push(start);
    const orderMatters = statics.laserOrderMatters();
    const tree = (choices.orderedHits || orderMatters) && !(orderMatters && choices.lazyOrder);
    this.hitsInOrder = tree && statics.rayTreesFit();
    this.lazyOrder = orderMatters && !this.hitsInOrder;
  }

  /** The step context of step t, its leaks recorded for `widen`. */
  beginStep(t: number): EncodingStep {
    const leaks: Leak[] = [];
    this.leaks.push(leaks);
    return { t, events: new Map(), secondChecks: [], leaks };
  }

  /** Whether the player may stand on `cell` after step t. */
  mayStandOn(cell: number, t: number): boolean {
    return this.reachableSets[t]!.has(cell);
  }

  // ---- literals ----

  /** "The player stands on `cell` after step t". */
  position(cell: number, t: number): number {
    if (t < 0 || t > this.horizon || !this.mayStandOn(cell, t)) return FALSE;
    if (t === 0) return cell === this.statics.start ? TRUE : FALSE;
    return this.formula.pool.named(POSITION, cellX(cell), cellY(cell), t);
  }

  /** "Step t makes action a" (a direction, or JUMP). */
  action(a: number, t: number): number {
    if (a >= this.actionCount) return FALSE;
    return this.formula.pool.named('act', a, t);
  }

  /** "The level is won by step t". */
  done(t: number): number {
    if (t < this.lowerBound) return FALSE;
    return this.formula.pool.named('done', t);
  }

  /** "The run has left the window by step t" (never without a window). */
  escaped(t: number): number {
    if (this.window === undefined || t < 1) return FALSE;
    return this.formula.pool.named('escaped', t);
  }

  /** "Step t makes a move" (the level was not won before it). */
  moved(t: number): number {
    return not(this.done(t - 1));
  }

  /** "The move of step t ends on `cell`". */
  landedOn(cell: number, t: number): number {
    return this.andOf(`landed ${cell} ${t}`, [this.position(cell, t), this.moved(t)]);
  }

  /** Tile k on `cell` in `table` (a cell the table does not follow keeps its tile from the start). */
  tile(table: TileTable, cell: number, k: number): number {
    if (cell === OFF_MAP) return k === Tile.Water ? TRUE : FALSE;
    const row = table.get(cell);
    if (row === undefined) return this.initialTiles[cell] === k ? TRUE : FALSE;
    return row[k]!;
  }

  /** Tile k on `cell` in the state after step t. */
  afterStep(cell: number, k: number, t: number): number {
    return this.tile(this.stepTables[t]!, cell, k);
  }

  /** Tile k on `cell` during the move of step t, after the leave and its board check. */
  afterLeave(cell: number, k: number, t: number): number {
    return this.tile(this.leaveTables[t]!, cell, k);
  }

  /** Tile k on `cell` after the final tile of step t acted. */
  afterEffect(cell: number, k: number, t: number): number {
    return this.tile(this.effectTables[t]!, cell, k);
  }

  /** "`cell` holds a raised tile in `table`" (`key` names the table for the gate cache). */
  raisedIn(table: TileTable, cell: number, key: string): number {
    const kinds = this.statics.kinds(cell).filter(isRaised);
    return this.orOf(
      `raised ${key} ${cell}`,
      kinds.map((k) => this.tile(table, cell, k)),
    );
  }

  // ---- gates ----

  /** A literal equal to the disjunction of `lits` (an auxiliary when needed, cached by `key`). */
  orOf(key: string, lits: readonly number[]): number {
    if (lits.includes(TRUE)) return TRUE;
    const live = [...new Set(lits.filter((l) => l !== FALSE))];
    if (live.length === 0) return FALSE;
    if (live.length === 1) return live[0]!;
    const k = `or ${key}`;
    let v = this.gates.get(k);
    if (v !== undefined) return v;
    v = this.formula.pool.fresh();
    this.gates.set(k, v);
    for (const l of live) this.formula.add([-l, v]);
    this.formula.add([-v, ...live]);
    return v;
  }

  /** A literal equal to the conjunction of `lits` (an auxiliary when needed, cached by `key`). */
  andOf(key: string, lits: readonly number[]): number {
    if (lits.includes(FALSE)) return FALSE;
    const live = [...new Set(lits.filter((l) => l !== TRUE))];
    if (live.length === 0) return TRUE;
    if (live.length === 1) return live[0]!;
    if (live.some((l) => live.includes(-l))) return FALSE;
    const k = `and ${key}`;
    let v = this.gates.get(k);
    if (v !== undefined) return v;
    v = this.formula.pool.fresh();
    this.gates.set(k, v);
    for (const l of live) this.formula.add([-v, l]);
    this.formula.add([v, ...live.map((l) => -l)]);
    return v;
  }

  /** A literal implying both `a` and `b`: one explanation of a "some tile remains" literal. */
  implyingBoth(a: number, b: number): number {
    if (a === FALSE || b === FALSE) return FALSE;
    if (a === TRUE) return b;
    if (b === TRUE) return a;
    const v = this.formula.pool.fresh();
    this.formula.add([-v, a]);
    this.formula.add([-v, b]);
    return v;
  }

  // ---- tables and collections ----

  /** A fresh table row for `cell` in phase `name` at step t (constants where one tile is possible). */
  freshRow(name: string, cell: number, t: number): number[] {
    const kinds = this.statics.kindsBy(cell, t);
    const row = new Array<number>(TILE_COUNT).fill(FALSE);
    if (kinds.length === 1) row[kinds[0]!] = TRUE;
    else for (const k of kinds) row[k] = this.formula.pool.named(name, k, cellX(cell), cellY(cell), t);
    return row;
  }

  exactlyOne(row: readonly number[]): void {
    const lits = row.filter((l) => l !== FALSE);
    addFolded(this.formula, lits);
    atMostOneFolded(this.formula, lits, 'pairwise');
  }

  addEvent(step: EncodingStep, cell: number, event: CellEvent): void {
    // A cell with one possible tile is left as it is by every event (the statics say so).
    if (event.lit === FALSE || this.statics.kinds(cell).length === 1) return;
    let list = step.events.get(cell);
    if (list === undefined) step.events.set(cell, (list = []));
    list.push(event);
  }

  addLeak(step: EncodingStep, lit: number, offMap = false): void {
    if (lit === FALSE) return;
    if (offMap && this.keepOnMap) addFolded(this.formula, [not(lit)]);
    else step.leaks.push({ lit, offMap });
  }

  /**
   * Where redundant clauses that hold for wins go: the formula, or with a window, the formula with
   * each clause also satisfied by a run that has left the window (escaped(T)).
   */
  winsOnly(): EncodingSink {
    const formula = this.formula;
    const guard = this.escaped(this.horizon);
    if (guard === FALSE) return formula;
    return { pool: formula.pool, add: (clause) => formula.add([...clause, guard]) };
  }
}
