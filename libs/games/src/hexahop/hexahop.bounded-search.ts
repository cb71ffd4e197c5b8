import { DIRECTION_NAMES, type MoveName } from './hexahop.geometry.js';
import { movesLeftBound } from './hexahop.lower-bound.js';
import { type HexahopInstance, HexahopSimulator } from './hexahop.model.js';
import { type HexahopStatics, staticsOf } from './hexahop.statics.js';

/** What a search for a win within a number of moves found. */
export interface HexahopBoundedSearchOutcome {
  /** A shortest win (of at most `bound` moves), when there is one. */
  plan?: MoveName[];
  /** The plan's score, replayed from the start. */
  score?: number;
  /** The most moves searched: without a plan (and not capped), no win takes this many or fewer. */
  bound: number;
  /**
   * No win has fewer moves: the plan's length, else one above the bound, or, capped, the depths
   * played out whole (`layers.length`).
   */
  lower: number;
  /** Distinct states kept (the start included). */
  states: number;
  /** States kept at each depth played out whole, the start's layer first. */
  layers: number[];
  /**
   * Set when the search stopped at `maxStates`, before an answer: it played out every depth of
   * `layers`, so no win takes fewer than `layers.length` moves.
   */
  capped: boolean;
}

export interface HexahopBoundedSearchOptions {
  /** Stop (capped) once this many states are kept. Default 50 million. */
  maxStates?: number;
  /** Called after each layer: its depth, the states kept in it, and all kept so far. */
  onLayer?: (depth: number, layer: number, states: number) => void;
}

/** Levels the bounded search refuses, and why (its keys leave out items). */
export function boundedSearchProblem(instance: Pick<HexahopInstance, 'items'>): string | undefined {
  if (Array.from(instance.items).some((i) => i !== 0)) return 'the level has items';
  return undefined;
}

/**
 * Fewest moves to win, within `bound`, by breadth-first search over the simulator's states that
 * prunes every state from which the admissible `movesLeftBound` says no win fits: a shortest plan,
 * or a proof of none, independent of the SAT encoding (docs/hexahop.md#searches-over-states).
 * States are packed in a hash table of typed arrays, since a JS Map holds far fewer.
 */
export function searchWinWithin(
  instance: HexahopInstance,
  bound: number,
  options: HexahopBoundedSearchOptions = {},
): HexahopBoundedSearchOutcome {
  const problem = boundedSearchProblem(instance);
  if (problem !== undefined) throw new Error(`bounded search: ${problem}`);
  const maxStates = options.maxStates ?? 50_000_000;
  const st = staticsOf(instance);
  if (st.unbounded) throw new Error('bounded search: tiles may spread over the map');
  const codec = new StateCodec(st, instance);
  const table = new StateTable(codec.words);
  const sim = new HexahopSimulator(instance);
  const key = new Uint32Array(codec.words);
  const parentKey = new Uint32Array(codec.words);
  codec.encode(sim, key);
  table.add(key, 0, 0);
  const layers = [1];
  const cellTiles = new Uint8Array(codec.cells.length);
  const h = movesLeftBound(st);
  let from = 0;
  for (let depth = 0; depth < bound; depth++) {
    const to = table.size;
    for (let s = from; s < to; s++) {
      table.keyOf(s, parentKey);
      const player = codec.decode(parentKey, cellTiles);
      sim.restoreCells(codec.cells, cellTiles, player, depth);
      // Each move is played from this state and undone: its key is the parent's with the cells
      // it changed (and the player) written over.
      sim.record(true);
      for (let m = 0; m < DIRECTION_NAMES.length; m++) {
        if (m > 0) sim.undo(player);
        if (!sim.move(DIRECTION_NAMES[m]!).ok || sim.dead) continue;
        if (sim.won) {
          sim.record(false);
          const plan = [...table.path(s), DIRECTION_NAMES[m]!];
          const replay = new HexahopSimulator(instance);
          for (const move of plan) replay.move(move);
          if (!replay.won || replay.dead)
            throw new Error('bounded search: its plan does not replay to a win');
          return {
            plan,
            score: replay.score,
            bound,
            lower: plan.length,
            states: table.size,
            layers,
            capped: false,
          };
        }
        if (depth + 1 + h(sim) > bound) continue;
        key.set(parentKey);
        codec.update(sim, key);
        table.add(key, s, m);
        // Capped mid-layer, every depth before this one was played out whole.
        if (table.size >= maxStates) {
          sim.record(false);
          return { bound, lower: layers.length, states: table.size, layers, capped: true };
        }
      }
      sim.undo(player);
      sim.record(false);
    }
    layers.push(table.size - to);
    options.onLayer?.(depth + 1, table.size - to, table.size);
    if (table.size === to) break;
    from = to;
  }
  return { bound, lower: bound + 1, states: table.size, layers, capped: false };
}

/**
 * Packs a state (the player's cell, the tiles of the cells that may change) into `words` 32-bit
 * words: per cell, the index of its tile among the tiles the statics say it may hold, in a field
 * that never straddles two words (so packing is a shift and an or per cell).
 */
class StateCodec {
  readonly cells: Int32Array;
  readonly words: number;
  private readonly tileCodes: Uint8Array[];
  private readonly tilesOf: number[][];
  /** Per field (the player's first, then each cell's): its word, shift and mask. */
  private readonly word: Uint8Array;
  private readonly shift: Uint8Array;
  private readonly mask: Uint32Array;
  private readonly playerCells: number[];
  private readonly playerIndex = new Map<number, number>();
  /** Per cell of the map, its index in `cells` (-1: a cell whose tile never changes). */
  private readonly fieldOf: Int32Array;
  private readonly start: Uint8Array;

  constructor(st: HexahopStatics, instance: HexahopInstance) {
    const cells: number[] = [];
    for (let c = 0; c < instance.tiles.length; c++) if (st.kinds(c).length > 1) cells.push(c);
    this.cells = Int32Array.from(cells);
    this.start = Uint8Array.from(instance.tiles);
    this.fieldOf = new Int32Array(instance.tiles.length).fill(-1);
    cells.forEach((c, i) => (this.fieldOf[c] = i));
    this.tilesOf = cells.map((c) => st.kinds(c));
    this.tileCodes = this.tilesOf.map((kinds) => {
      const codes = new Uint8Array(32).fill(255);
      kinds.forEach((k, i) => (codes[k] = i));
      return codes;
    });
    this.playerCells = st.cellsBy(Number.POSITIVE_INFINITY);
    this.playerCells.forEach((c, i) => this.playerIndex.set(c, i));
    const widths = [bitsFor(this.playerCells.length), ...this.tilesOf.map((kinds) => bitsFor(kinds.length))];
    this.word = new Uint8Array(widths.length);
    this.shift = new Uint8Array(widths.length);
    this.mask = new Uint32Array(widths.length);
    let bit = 0;
    widths.forEach((width, f) => {
      if ((bit & 31) + width > 32) bit = (bit | 31) + 1;
      this.word[f] = bit >>> 5;
      this.shift[f] = bit & 31;
      this.mask[f] = width === 32 ? 0xffffffff : (1 << width) - 1;
      bit += width;
    });
    this.words = Math.max(1, Math.ceil(bit / 32));
  }

  /**
   * Writes over `key` (a state's) the fields of the cells `sim` recorded changes to, and the
   * player's. A live move that changed a cell the statics call fixed is a wrong analysis, which
   * would merge states that differ: an error, never a silent proof.
   */
  update(sim: HexahopSimulator, key: Uint32Array): void {
    this.put(key, 0, this.playerField(sim.player));
    for (let j = 0; j < sim.changeCount; j++) {
      const cell = sim.changedCell(j);
      const i = this.fieldOf[cell]!;
      if (i >= 0) this.put(key, i + 1, this.codeOf(i, sim.tiles[cell]!));
      else if (sim.tiles[cell] !== this.start[cell]) {
        throw new Error(`bounded search: cell ${cell}, which the statics call fixed, changed`);
      }
    }
  }

  encode(sim: HexahopSimulator, out: Uint32Array): void {
    out.fill(0);
    this.put(out, 0, this.playerField(sim.player));
    for (let i = 0; i < this.cells.length; i++)
      this.put(out, i + 1, this.codeOf(i, sim.tiles[this.cells[i]!]!));
  }

  private playerField(cell: number): number {
    const player = this.playerIndex.get(cell);
    if (player === undefined) {
      throw new Error(`bounded search: the player stands on cell ${cell}, out of the statics' reach`);
    }
    return player;
  }

  private codeOf(i: number, tile: number): number {
    const code = this.tileCodes[i]![tile]!;
    if (code === 255)
      throw new Error(`bounded search: cell ${this.cells[i]} holds a tile the statics rule out`);
    return code;
  }

  private put(key: Uint32Array, f: number, value: number): void {
    const w = this.word[f]!;
    key[w] = (key[w]! & ~(this.mask[f]! << this.shift[f]!)) | (value << this.shift[f]!);
  }

  /** Writes the tiles of the state `key` packs into `tiles` (one per cell of `cells`); returns its player cell. */
  decode(key: Uint32Array, tiles: Uint8Array): number {
    const player = this.playerCells[this.field(key, 0)]!;
    for (let i = 0; i < this.cells.length; i++) tiles[i] = this.tilesOf[i]![this.field(key, i + 1)]!;
    return player;
  }

  private field(key: Uint32Array, f: number): number {
    return (key[this.word[f]!]! >>> this.shift[f]!) & this.mask[f]!;
  }
}

function bitsFor(n: number): number {
  return n <= 1 ? 0 : 32 - Math.clz32(n - 1);
}

/** States kept in the order found, with their parents and moves, behind an open-addressing index. */
class StateTable {
  size = 0;
  private static readonly CHUNK_BITS = 22;
  private readonly keys: Uint32Array[] = [];
  private readonly parents: Uint32Array[] = [];
  private readonly moves: Uint8Array[] = [];
  private index = new Uint32Array(1 << 16);
  private mask = (1 << 16) - 1;

  constructor(readonly words: number) {}

  word(s: number, w: number): number {
    return this.keys[s >>> StateTable.CHUNK_BITS]![
      (s & ((1 << StateTable.CHUNK_BITS) - 1)) * this.words + w
    ]!;
  }

  /** Copies state `s`'s key into `out`. */
  keyOf(s: number, out: Uint32Array): void {
    const at = (s & ((1 << StateTable.CHUNK_BITS) - 1)) * this.words;
    out.set(this.keys[s >>> StateTable.CHUNK_BITS]!.subarray(at, at + this.words));
  }

  /** Adds the state unless kept already; true when added. */
  add(key: Uint32Array, parent: number, move: number): boolean {
    let slot = hashOf(key) & this.mask;
    for (;;) {
      const at = this.index[slot]!;
      if (at === 0) break;
      if (this.equals(at - 1, key)) return false;
      slot = (slot + 1) & this.mask;
    }
    const s = this.size++;
    const chunk = s >>> StateTable.CHUNK_BITS;
    if (chunk === this.keys.length) {
      const n = 1 << StateTable.CHUNK_BITS;
      this.keys.push(new Uint32Array(n * this.words));
      this.parents.push(new Uint32Array(n));
      this.moves.push(new Uint8Array(n));
    }
    const i = s & ((1 << StateTable.CHUNK_BITS) - 1);
    this.keys[chunk]!.set(key, i * this.words);
    this.parents[chunk]![i] = parent;
    this.moves[chunk]![i] = move;
    this.index[slot] = s + 1;
    if (this.size * 10 > this.index.length * 7) this.grow();
    return true;
  }

  /** The moves from the start to state `s`. */
  path(s: number): MoveName[] {
    const out: MoveName[] = [];
    for (; s !== 0; s = this.parents[s >>> StateTable.CHUNK_BITS]![s & ((1 << StateTable.CHUNK_BITS) - 1)]!) {
      out.push(
        DIRECTION_NAMES[this.moves[s >>> StateTable.CHUNK_BITS]![s & ((1 << StateTable.CHUNK_BITS) - 1)]!]!,
      );
    }
    return out.reverse();
  }

  private equals(s: number, key: Uint32Array): boolean {
    for (let w = 0; w < this.words; w++) if (this.word(s, w) !== key[w]) return false;
    return true;
  }

  private grow(): void {
    this.index = new Uint32Array(this.index.length * 2);
    this.mask = this.index.length - 1;
    const key = new Uint32Array(this.words);
    for (let s = 0; s < this.size; s++) {
      for (let w = 0; w < this.words; w++) key[w] = this.word(s, w);
      let slot = hashOf(key) & this.mask;
      while (this.index[slot] !== 0) slot = (slot + 1) & this.mask;
      this.index[slot] = s + 1;
    }
  }
}

function hashOf(key: Uint32Array): number {
  let h = 0x811c9dc5;
  for (let w = 0; w < key.length; w++) {
    h = Math.imul(h ^ key[w]!, 0x9e3779b1);
    h ^= h >>> 15;
  }
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  return (h ^ (h >>> 13)) >>> 0;
}
