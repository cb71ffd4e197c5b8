/*
 * Perfect-hash coordinates of cubie groups: each pattern of a group gets an index in 0..count-1,
 * and move tables map an index and a move to the index after the move, so that breadth-first
 * search (`cube.pattern-table.ts`) runs on numbers alone, never on cube objects.
 */
import { CubeState, type Metric, solverMoves } from './cube.model.js';

/**
 * Rank of an arrangement: `values` are k distinct numbers below n, ranked in mixed radix
 * n, n-1, ..., n-k+1 by how many unused numbers lie below each (a Lehmer code when k = n).
 */
export function rankArrangement(values: ArrayLike<number>, n: number): number {
  let used = 0;
  let rank = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    let below = 0;
    for (let u = 0; u < v; u++) if ((used & (1 << u)) === 0) below++;
    used |= 1 << v;
    rank = rank * (n - i) + below;
  }
  return rank;
}

/** The arrangement of k numbers below n with this rank (inverse of `rankArrangement`). */
export function unrankArrangement(rank: number, n: number, k: number): Uint8Array {
  const digits = new Uint8Array(k);
  let r = rank;
  for (let i = k - 1; i >= 0; i--) {
    const radix = n - i;
    digits[i] = r % radix;
    r = Math.floor(r / radix);
  }
  const out = new Uint8Array(k);
  let used = 0;
  for (let i = 0; i < k; i++) {
    let below = digits[i]!;
    let v = 0;
    for (; ; v++) {
      if ((used & (1 << v)) !== 0) continue;
      if (below === 0) break;
      below--;
    }
    used |= 1 << v;
    out[i] = v;
  }
  return out;
}

/** n! / (n - k)!: how many arrangements of k numbers below n there are. */
export function arrangements(n: number, k: number): number {
  let count = 1;
  for (let i = 0; i < k; i++) count *= n - i;
  return count;
}

/**
 * The patterns of one cubie group as indices 0..count-1, with the successors of an index under
 * each solver move. The projection commutes with the moves, so the distance of an index in this
 * space never exceeds the distance of any cube with that pattern: an admissible lower bound.
 */
export interface CubieCoordinate {
  /** The pattern's name in file names and reports: `corners`, `edges-0-1-2-3-4-5`, `co`. */
  readonly name: string;
  readonly count: number;
  /** Number of moves (18 in the half-turn metric, 12 in the quarter-turn one). */
  readonly moveCount: number;
  /** The index of a 3x3 state's pattern. */
  index(state: CubeState): number;
  /** Makes the move tables (`successors` makes them when first called; `index` needs none). */
  prepare(): void;
  /** Writes the index after each move into `out[0..moveCount-1]`. */
  successors(index: number, out: Uint32Array): void;
}

const TWISTS = 2187; // 3^7: the eighth corner's twist follows from the others

function twistRank(co: ArrayLike<number>): number {
  let rank = 0;
  for (let i = 0; i < 7; i++) rank = rank * 3 + co[i]!;
  return rank;
}

function twistUnrank(rank: number): Uint8Array {
  const co = new Uint8Array(8);
  let r = rank;
  let sum = 0;
  for (let i = 6; i >= 0; i--) {
    co[i] = r % 3;
    sum += co[i]!;
    r = Math.floor(r / 3);
  }
  co[7] = (3 - (sum % 3)) % 3;
  return co;
}

const moveStates = (metric: Metric): CubeState[] => solverMoves(3, metric).map((m) => CubeState.ofMove(3, m));

/** Twist of every corner position (Kociemba's): 2,187 patterns; moves act on it alone. */
function twistMoveTable(moves: readonly CubeState[]): Uint16Array {
  const table = new Uint16Array(TWISTS * moves.length);
  for (let r = 0; r < TWISTS; r++) {
    const co = twistUnrank(r);
    moves.forEach((m, k) => {
      table[r * moves.length + k] = twistRank(Array.from(m.cp, (src, i) => (co[src]! + m.co[i]!) % 3));
    });
  }
  return table;
}

/** The corner twists alone (2,187 patterns): small enough for specs of the search. */
export class CornerTwistCoordinate implements CubieCoordinate {
  readonly name = 'co';
  readonly count = TWISTS;
  readonly moveCount: number;
  private table: Uint16Array | undefined;

  constructor(readonly metric: Metric) {
    this.moveCount = solverMoves(3, metric).length;
  }

  index(state: CubeState): number {
    return twistRank(state.co);
  }

  prepare(): Uint16Array {
    return (this.table ??= twistMoveTable(moveStates(this.metric)));
  }

  successors(index: number, out: Uint32Array): void {
    const table = this.table ?? this.prepare();
    const base = index * this.moveCount;
    for (let k = 0; k < this.moveCount; k++) out[k] = table[base + k]!;
  }
}

/**
 * All eight corners, place and twist: 8! * 3^7 = 88,179,840 patterns. Index = permutation rank
 * (the cubie at each position) * 2187 + twist rank; a move acts on the two parts separately.
 */
export class CornerCoordinate implements CubieCoordinate {
  static readonly PERMS = 40_320;
  readonly name = 'corners';
  readonly count = CornerCoordinate.PERMS * TWISTS;
  readonly moveCount: number;
  private tables: { perm: Uint16Array; twist: Uint16Array } | undefined;

  constructor(readonly metric: Metric) {
    this.moveCount = solverMoves(3, metric).length;
  }

  index(state: CubeState): number {
    return rankArrangement(state.cp, 8) * TWISTS + twistRank(state.co);
  }

  prepare(): { perm: Uint16Array; twist: Uint16Array } {
    if (this.tables !== undefined) return this.tables;
    const moves = moveStates(this.metric);
    const M = moves.length;
    const perm = new Uint16Array(CornerCoordinate.PERMS * M);
    const after = new Uint8Array(8);
    for (let r = 0; r < CornerCoordinate.PERMS; r++) {
      const cp = unrankArrangement(r, 8, 8);
      for (let k = 0; k < M; k++) {
        const m = moves[k]!;
        for (let i = 0; i < 8; i++) after[i] = cp[m.cp[i]!]!;
        perm[r * M + k] = rankArrangement(after, 8);
      }
    }
    return (this.tables = { perm, twist: twistMoveTable(moves) });
  }

  successors(index: number, out: Uint32Array): void {
    const { perm: permTable, twist: twistTable } = this.tables ?? this.prepare();
    const M = this.moveCount;
    const perm = Math.floor(index / TWISTS);
    const twist = index - perm * TWISTS;
    const p = perm * M;
    const t = twist * M;
    for (let k = 0; k < M; k++) out[k] = permTable[p + k]! * TWISTS + twistTable[t + k]!;
  }

  /** The corner part of the state of an index (for specs). */
  corners(index: number): { cp: Uint8Array; co: Uint8Array } {
    const perm = Math.floor(index / TWISTS);
    return { cp: unrankArrangement(perm, 8, 8), co: twistUnrank(index - perm * TWISTS) };
  }
}

/**
 * A group of k tracked edges: where each is and whether it is flipped, the other edges alike.
 * 12!/(12-k)! * 2^k patterns (k = 6: 42,577,920). Index = rank of the tracked cubies' positions
 * * 2^k + their flips (bit j for the j-th tracked cubie). A move sends each tracked edge to a
 * position the positions alone fix and flips it by a mask they alone fix too, so one table entry
 * per positions rank and move holds both: the next index is the entry XOR the flips.
 */
export class EdgeGroupCoordinate implements CubieCoordinate {
  readonly name: string;
  readonly count: number;
  readonly moveCount: number;
  private readonly k: number;
  private readonly flips: number;
  private table: Uint32Array | undefined;

  constructor(
    readonly metric: Metric,
    readonly cubies: readonly number[],
  ) {
    const k = cubies.length;
    if (k < 1 || k > 8 || new Set(cubies).size !== k || cubies.some((c) => !(c >= 0 && c < 12)))
      throw new RangeError(`edge group must name 1..8 distinct edges 0..11, got ${cubies.join(',')}`);
    this.k = k;
    this.name = `edges-${cubies.join('-')}`;
    this.flips = 1 << k;
    this.count = arrangements(12, k) * this.flips;
    this.moveCount = solverMoves(3, metric).length;
  }

  index(state: CubeState): number {
    const pos = new Uint8Array(this.k);
    let flips = 0;
    for (let p = 0; p < 12; p++) {
      const j = this.cubies.indexOf(state.ep[p]!);
      if (j < 0) continue;
      pos[j] = p;
      flips |= state.eo[p]! << j;
    }
    return rankArrangement(pos, 12) * this.flips + flips;
  }

  prepare(): Uint32Array {
    if (this.table !== undefined) return this.table;
    const { k } = this;
    const moves = moveStates(this.metric);
    const M = moves.length;
    // Where a move sends the edge at each position (the move's tables say where each came from).
    const dest = moves.map((m) => {
      const d = new Uint8Array(12);
      m.ep.forEach((from, to) => (d[from] = to));
      return d;
    });
    const places = arrangements(12, k);
    const table = new Uint32Array(places * M);
    const after = new Uint8Array(k);
    for (let r = 0; r < places; r++) {
      const pos = unrankArrangement(r, 12, k);
      for (let m = 0; m < M; m++) {
        let mask = 0;
        for (let j = 0; j < k; j++) {
          const to = dest[m]![pos[j]!]!;
          after[j] = to;
          mask |= moves[m]!.eo[to]! << j;
        }
        table[r * M + m] = rankArrangement(after, 12) * this.flips + mask;
      }
    }
    return (this.table = table);
  }

  successors(index: number, out: Uint32Array): void {
    const table = this.table ?? this.prepare();
    const M = this.moveCount;
    const flips = index & (this.flips - 1);
    const base = ((index - flips) / this.flips) * M;
    for (let m = 0; m < M; m++) out[m] = (table[base + m]! ^ flips) >>> 0;
  }

  /** Positions and flips of the tracked edges of an index (for specs). */
  edges(index: number): { positions: Uint8Array; flips: Uint8Array } {
    const flips = index & (this.flips - 1);
    const positions = unrankArrangement((index - flips) / this.flips, 12, this.k);
    return { positions, flips: Uint8Array.from(positions, (_, j) => (flips >> j) & 1) };
  }
}

/**
 * The six-edge group of the strong 3x3 bound: the U face's edges, FR and FL. A half turn of the
 * whole cube about the R-L axis sends it onto the other six, so its table read through the
 * symmetries bounds both halves (`strongCubeBound`).
 */
export const EDGE_GROUP: readonly number[] = [0, 1, 2, 3, 8, 9];
