import {
  cellIndex,
  cellX,
  cellY,
  type Direction,
  DIRECTIONS,
  directionByName,
  MAP_SIZE,
  type MoveName,
  OFF_MAP,
  stepFrom,
} from './hexahop.geometry.js';

/** Tile ids as stored in levels.dat (the low 5 bits of a grid byte). */
export const Tile = {
  Water: 0,
  Normal: 1,
  Green: 2,
  GreenWall: 3,
  Trampoline: 4,
  Spinner: 5,
  Stone: 6,
  Blue: 7,
  BlueWall: 8,
  Laser: 9,
  Ice: 10,
  DeIced: 11,
  Builder: 12,
  Switch: 13,
  Boat: 14,
  LiftDown: 15,
  LiftUp: 16,
} as const;
export type TileId = (typeof Tile)[keyof typeof Tile];

/** The name of each tile id, as used in messages and the `levels` listing. */
export const TILE_NAMES: readonly string[] = [
  'water',
  'normal',
  'green',
  'green wall',
  'trampoline',
  'spinner',
  'stone wall',
  'blue',
  'blue wall',
  'laser',
  'ice',
  'de-iced',
  'builder',
  'switch',
  'boat',
  'lift down',
  'lift up',
];

/** Solidity of each tile id: -1 water (cannot be entered), 0 floor, 1 raised. */
export const SOLIDITY: readonly number[] = [-1, 0, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1];

/** Items lying on cells (the high bits of a grid byte). */
export const Item = { None: 0, AntiIce: 1, Jump: 2 } as const;
export const ITEM_NAMES: readonly string[] = ['none', 'anti-ice', 'jump'];

/** One level to solve: the whole 30 x 30 map (row-major by x: index `x * 30 + y`). */
export interface HexahopInstance {
  /** Display name (or `custom` for a map given in the input). */
  name: string;
  /** The level's file name without `.lev`, e.g. `asymmetrix`. */
  file?: string;
  chapter?: string;
  /** The level's position 1..100 in levels.dat. */
  number?: number;
  /** The game's par score. */
  par?: number;
  difficulty?: number;
  /** Tile id of every map cell, length 900. */
  tiles: number[];
  /** Item of every map cell, length 900. */
  items: number[];
  start: [number, number];
}

/** A plan: the moves in order, the score the game gives it, and the level's par beside it. */
export interface HexahopSolution {
  moves: MoveName[];
  score: number;
  /** The level's par score, when the level has one (for reports; not checked). */
  par?: number;
}

/** The outcome of one input: refused (nothing changed), or played. */
export type MoveOutcome = { ok: true } | { ok: false; reason: string };

const WATER = Tile.Water;

/**
 * The rules of Hex-a-Hop (docs/hexahop.md#the-rules), replayed move by move on the 30 x 30 map:
 * the reference every plan is checked against. A move names a direction or `J` (jump in place);
 * a refused input changes nothing and costs nothing, a played one leaves its tile, then lands.
 */
export class HexahopSimulator {
  readonly tiles: Uint8Array;
  readonly items: Uint8Array;
  player: number;
  antiIce = 0;
  jumps = 0;
  score = 0;
  moves = 0;
  dead = false;
  won = false;
  /** While recording (see `record`): per tile change, the cell and the tile it held. */
  private journal: Int32Array | undefined;
  private journalEnd = 0;
  private readonly counts = new Int32Array(32);

  constructor(instance: Pick<HexahopInstance, 'tiles' | 'items' | 'start'>) {
    this.tiles = Uint8Array.from(instance.tiles);
    this.items = Uint8Array.from(instance.items);
    this.player = cellIndex(instance.start[0], instance.start[1]);
    for (const t of this.tiles) this.counts[t]!++;
  }

  /** An independent copy. */
  clone(): HexahopSimulator {
    const copy = Object.create(HexahopSimulator.prototype) as HexahopSimulator;
    Object.assign(copy, this, {
      tiles: this.tiles.slice(),
      items: this.items.slice(),
      counts: this.counts.slice(),
    });
    return copy;
  }

  /** A string identifying the whole state (for searches over states). */
  key(): string {
    return `${this.player},${this.antiIce},${this.jumps},${this.dead ? 1 : 0}${this.won ? 1 : 0},${Buffer.from(this.tiles).toString('latin1')}${Buffer.from(this.items).toString('latin1')}`;
  }

  /**
   * The state that decides what moves can do next, packed small for searches over many states:
   * the player (2 bytes), the anti-ice and jump items held, then 3 bytes per cell that is not
   * water or holds an item (cell, tile + item << 5, as in the level file).
   */
  packState(): Uint8Array {
    let land = 0;
    for (let c = 0; c < this.tiles.length; c++) if (this.tiles[c] !== WATER || this.items[c] !== 0) land++;
    const out = new Uint8Array(4 + 3 * land);
    out[0] = this.player >> 8;
    out[1] = this.player & 0xff;
    out[2] = this.antiIce;
    out[3] = this.jumps;
    let i = 4;
    for (let c = 0; c < this.tiles.length; c++) {
      if (this.tiles[c] === WATER && this.items[c] === 0) continue;
      out[i++] = c >> 8;
      out[i++] = c & 0xff;
      out[i++] = this.tiles[c]! | (this.items[c]! << 5);
    }
    return out;
  }

  /**
   * Puts the simulator in a state `packState` packed: alive, not won, at move `moves`. The score
   * is no part of a state and stays as it was.
   */
  unpackState(packed: Uint8Array, moves: number): void {
    this.tiles.fill(WATER);
    this.items.fill(0);
    this.counts.fill(0);
    this.player = (packed[0]! << 8) | packed[1]!;
    this.antiIce = packed[2]!;
    this.jumps = packed[3]!;
    for (let i = 4; i < packed.length; i += 3) {
      const c = (packed[i]! << 8) | packed[i + 1]!;
      this.tiles[c] = packed[i + 2]! & 31;
      this.items[c] = packed[i + 2]! >> 5;
    }
    for (const t of this.tiles) this.counts[t]!++;
    this.dead = false;
    this.won = false;
    this.moves = moves;
  }

  /**
   * Puts the simulator in the state where `cells` hold `tiles` (the other cells as they are) and
   * the player stands on `player`: alive, not won, at move `moves`. Cheaper than `unpackState`
   * for searches that key states on the few cells that may change.
   */
  restoreCells(cells: ArrayLike<number>, tiles: ArrayLike<number>, player: number, moves: number): void {
    for (let i = 0; i < cells.length; i++)
      if (this.tiles[cells[i]!] !== tiles[i]) this.set(cells[i]!, tiles[i]!);
    this.player = player;
    this.dead = false;
    this.won = false;
    this.moves = moves;
  }

  /**
   * Starts (or ends) recording tile changes, so that a search can undo a move instead of loading
   * the state it came from again: `changeCount` and `changedCell` then say what changed, `undo`
   * puts it back.
   */
  record(on: boolean): void {
    this.journal = on ? (this.journal ?? new Int32Array(256)) : undefined;
    this.journalEnd = 0;
  }

  /** The tile changes since recording started or the last `undo` (a cell may change more than once). */
  get changeCount(): number {
    return this.journalEnd >> 1;
  }

  /** The cell of change `j` (0 <= j < changeCount). */
  changedCell(j: number): number {
    return this.journal![2 * j]!;
  }

  /**
   * Puts back every tile changed since recording started or the last `undo`, and the player on
   * `player`, alive, not won (the score, the move count and the items stay as they are).
   */
  undo(player: number): void {
    const journal = this.journal;
    if (journal === undefined) throw new Error('undo needs record(true) first');
    this.journal = undefined;
    for (let i = this.journalEnd - 2; i >= 0; i -= 2) this.set(journal[i]!, journal[i + 1]!);
    this.journal = journal;
    this.journalEnd = 0;
    this.player = player;
    this.dead = false;
    this.won = false;
  }

  private note(cell: number): void {
    if (this.journalEnd + 2 > this.journal!.length) {
      const wider = new Int32Array(this.journal!.length * 2);
      wider.set(this.journal!);
      this.journal = wider;
    }
    this.journal![this.journalEnd++] = cell;
    this.journal![this.journalEnd++] = this.tiles[cell]!;
  }

  /**
   * The level as it stands now, as an instance to solve from here (`base`'s name and par kept):
   * the board, the items still lying on it, the player's cell. Undefined when the player holds an
   * item, which no instance starts with, or when the run is over (dead or won).
   */
  toInstance(base: HexahopInstance): HexahopInstance | undefined {
    if (this.dead || this.won || this.antiIce > 0 || this.jumps > 0) return undefined;
    return { ...base, tiles: Array.from(this.tiles), items: Array.from(this.items), start: this.position };
  }

  tile(cell: number): number {
    return cell === OFF_MAP ? WATER : this.tiles[cell]!;
  }

  count(tile: number): number {
    return this.counts[tile]!;
  }

  get position(): [number, number] {
    return [cellX(this.player), cellY(this.player)];
  }

  /** Plays one move (a direction name or `J`). */
  move(name: string): MoveOutcome {
    if (this.dead) return { ok: false, reason: 'the player is dead' };
    if (this.won) return { ok: false, reason: 'the level is already won' };
    const jump = name === 'J';
    const d = jump ? undefined : directionByName(name);
    if (!jump && d === undefined) return { ok: false, reason: `unknown move '${name}'` };
    if (jump && this.jumps === 0) return { ok: false, reason: 'no jump item to use' };
    const from = this.player;
    const high = SOLIDITY[this.tile(from)] === 1;
    let to = d === undefined ? from : stepFrom(from, d);
    if (d !== undefined) {
      const solidity = SOLIDITY[this.tile(to)]!;
      if (solidity === -1) return { ok: false, reason: `move ${name} is onto water` };
      if (solidity === 1 && !high)
        return { ok: false, reason: `move ${name} is onto a raised tile from below` };
    } else {
      this.jumps--;
    }
    this.leave(from);
    for (;;) {
      const item = this.items[to] ?? 0;
      if (to !== OFF_MAP && item !== Item.None) {
        this.items[to] = Item.None;
        if (item === Item.AntiIce) this.antiIce++;
        else this.jumps++;
      }
      this.player = to;
      const next = this.land(to, d, high);
      if (next === undefined) break;
      to = next;
    }
    if (this.dead) this.won = false;
    this.score++;
    this.moves++;
    return { ok: true };
  }

  /** The tile's reaction to being left. */
  private leave(cell: number): void {
    switch (this.tile(cell)) {
      case Tile.Green:
        this.set(cell, WATER);
        this.checkBoard();
        break;
      case Tile.GreenWall:
        this.set(cell, WATER);
        break;
      case Tile.Blue:
        this.set(cell, Tile.Green);
        this.score += 10;
        this.checkBoard();
        break;
      case Tile.BlueWall:
        this.set(cell, Tile.GreenWall);
        this.score += 10;
        break;
      case Tile.DeIced:
        this.set(cell, Tile.Blue);
        break;
    }
  }

  /** The tile's reaction to the player landing; returns the next cell when the player is thrown on. */
  private land(cell: number, d: Direction | undefined, high: boolean): number | undefined {
    switch (this.tile(cell)) {
      case WATER:
        this.dead = true;
        return undefined;
      case Tile.Builder: {
        for (const fd of DIRECTIONS) {
          const n = stepFrom(cell, fd);
          if (this.tile(n) === WATER) this.set(n, Tile.Green);
          else if (this.tile(n) === Tile.Green) this.set(n, Tile.GreenWall);
        }
        this.checkBoard();
        return undefined;
      }
      case Tile.Switch:
        for (let c = 0; c < this.tiles.length; c++) {
          if (this.tiles[c] === Tile.GreenWall) this.set(c, Tile.Green);
          else if (this.tiles[c] === Tile.Green) this.set(c, Tile.GreenWall);
        }
        return undefined;
      case Tile.Boat: {
        if (d === undefined) return undefined;
        let at = cell;
        while (SOLIDITY[this.tile(stepFrom(at, d))] === -1) {
          const ahead = stepFrom(at, d);
          if (ahead === OFF_MAP) {
            this.dead = true;
            break;
          }
          this.set(at, WATER);
          this.set(ahead, Tile.Boat);
          at = ahead;
        }
        this.player = at;
        return undefined;
      }
      case Tile.LiftDown:
        this.set(cell, Tile.LiftUp);
        return undefined;
      case Tile.LiftUp:
        this.set(cell, Tile.LiftDown);
        return undefined;
      case Tile.Trampoline: {
        if (d === undefined) return undefined;
        const blocks = (c: number): boolean => !high && SOLIDITY[this.tile(c)] === 1;
        if (blocks(stepFrom(cell, d))) return undefined;
        return blocks(stepFrom(cell, d, 2)) ? stepFrom(cell, d) : stepFrom(cell, d, 2);
      }
      case Tile.Spinner: {
        const around = DIRECTIONS.map((fd) => stepFrom(cell, fd));
        const before = around.map((c) => this.tile(c));
        around.forEach((c, k) => this.set(c, before[(k + 5) % 6]!));
        return undefined;
      }
      case Tile.Ice: {
        if (d === undefined) return undefined;
        if (this.antiIce > 0) {
          this.set(cell, Tile.DeIced);
          this.antiIce--;
          return undefined;
        }
        const ahead = stepFrom(cell, d);
        return SOLIDITY[this.tile(ahead)] === 1 ? undefined : ahead;
      }
      case Tile.Laser:
        this.fireLaser(cell, d);
        if (this.tile(cell) === WATER) this.dead = true;
        return undefined;
      default:
        return undefined;
    }
  }

  private fireLaser(from: number, d: Direction | undefined): void {
    const tileAt = (c: number): number => this.tile(c);
    const { hits } = traceShot(tileAt, from, d);
    const exploding = new Set(explodingLasers(tileAt, hits));
    for (const p of hits) {
      if (this.tile(p) === Tile.Ice) continue;
      this.destroy(p);
      if (exploding.has(p)) for (const j of DIRECTIONS) this.destroy(stepFrom(p, j));
    }
    this.checkBoard();
  }

  private destroy(cell: number): void {
    const t = this.tile(cell);
    if (t !== WATER && t !== Tile.Green && t !== Tile.GreenWall) this.score += 10;
    this.set(cell, WATER);
  }

  private checkBoard(): void {
    if (this.count(Tile.Green) === 0) {
      if (this.replace(Tile.GreenWall, Tile.Green) === 0) this.won = true;
      this.replace(Tile.Switch, Tile.Normal);
    } else {
      this.won = false;
    }
    if (this.count(Tile.Blue) === 0) this.replace(Tile.BlueWall, Tile.Blue);
  }

  private replace(from: number, to: number): number {
    if (this.counts[from] === 0) return 0;
    let n = 0;
    for (let c = 0; c < this.tiles.length; c++) {
      if (this.tiles[c] === from) {
        this.set(c, to);
        n++;
      }
    }
    return n;
  }

  private set(cell: number, tile: number): void {
    if (cell === OFF_MAP || this.tiles[cell] === tile) return;
    if (this.journal !== undefined) this.note(cell);
    this.counts[this.tiles[cell]!]!--;
    this.counts[tile]!++;
    this.tiles[cell] = tile;
  }
}

/** The cells a laser shot hits, in the game's order, and every cell the beams looked at. */
export interface TracedShot {
  hits: number[];
  /** The cells whose tiles decided the shot (passed over, hit, or stopped at). */
  read: number[];
}

/**
 * The beams of a laser shot from `from` (in direction `d`, or all six for a jump): each passes
 * over water and hits the first other tile; ice sends it on in the two directions 60 degrees
 * off, clockwise first, but a beam reaching a cell already hit (ice: already entered from the
 * same direction) stops there. Hits are listed in the order the beams find them.
 */
export function traceShot(
  tileAt: (cell: number) => number,
  from: number,
  d: Direction | undefined,
): TracedShot {
  const hits: number[] = [];
  const read = new Set<number>();
  const hitDirections = new Map<number, number>();
  const beam = (origin: number, fd: Direction): void => {
    let p = stepFrom(origin, fd);
    for (let range = 0; range < MAP_SIZE; range++, p = stepFrom(p, fd)) {
      const t = tileAt(p);
      if (p !== OFF_MAP) read.add(p);
      if (SOLIDITY[t] === -1) continue;
      const seen = hitDirections.get(p);
      if (seen === undefined || (t === Tile.Ice && (seen & (1 << fd)) === 0)) {
        if (seen === undefined) hits.push(p);
        hitDirections.set(p, (seen ?? 0) | (1 << fd));
        if (t === Tile.Ice) {
          beam(p, ((fd + 1) % 6) as Direction);
          beam(p, ((fd + 5) % 6) as Direction);
        }
      }
      return;
    }
  };
  for (const fd of d === undefined ? DIRECTIONS : [d]) beam(from, fd);
  return { hits, read: [...read] };
}

/**
 * The hit lasers that explode when a shot's hits are destroyed in order (tiles as before the
 * shot): each one not already destroyed by the explosion of a neighbour before it.
 */
export function explodingLasers(tileAt: (cell: number) => number, hits: readonly number[]): number[] {
  const gone = new Set<number>();
  const out: number[] = [];
  for (const p of hits) {
    if (gone.has(p) || tileAt(p) !== Tile.Laser) continue;
    out.push(p);
    for (const j of DIRECTIONS) gone.add(stepFrom(p, j));
  }
  return out;
}
