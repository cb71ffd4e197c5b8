import { type HexahopBoard, type LandingOracle } from './hexahop.board.js';
import { type Direction, DIRECTIONS, stepFrom } from './hexahop.geometry.js';

type Tri = boolean | 'unknown';

/**
 * Over-approximate moves of a level, ignoring the state of the board: a green-family cell may
 * be water or raised when the encoding would ask, a lift may be up or down. Every real move is
 * among them, so the sets and distances below are safe to prune the encoding with.
 */
export class HexahopReach {
  /** successors[c] = cells one move from c (for cells ever standable). */
  private readonly successors = new Map<number, number[]>();
  /** firstArrival(c): fewest moves to stand on c (Infinity when never). */
  private readonly arrival = new Map<number, number>();
  private predecessors: Map<number, number[]> | undefined;

  constructor(private readonly board: HexahopBoard) {
    const queue = [board.start];
    this.arrival.set(board.start, 0);
    for (let i = 0; i < queue.length; i++) {
      const c = queue[i]!;
      for (const n of this.next(c)) {
        if (!this.arrival.has(n)) {
          this.arrival.set(n, this.arrival.get(c)! + 1);
          queue.push(n);
        }
      }
    }
  }

  /** Fewest moves to first stand on `cell` (Infinity when never). */
  firstArrival(cell: number): number {
    return this.arrival.get(cell) ?? Number.POSITIVE_INFINITY;
  }

  /** The cells the player may stand on at step t (or earlier: frozen after the win). */
  cellsBy(t: number): number[] {
    const out: number[] = [];
    for (const [c, a] of this.arrival) if (a <= t) out.push(c);
    return out.sort((a, b) => a - b);
  }

  /** Fewest over-approximate moves from `from` to every cell reachable from it. */
  distancesFrom(from: number): Map<number, number> {
    const dist = new Map<number, number>([[from, 0]]);
    const queue = [from];
    for (let i = 0; i < queue.length; i++) {
      const c = queue[i]!;
      for (const n of this.next(c)) {
        if (!dist.has(n)) {
          dist.set(n, dist.get(c)! + 1);
          queue.push(n);
        }
      }
    }
    return dist;
  }

  /** The cells one move before `cell`. */
  previous(cell: number): number[] {
    if (this.predecessors === undefined) {
      this.predecessors = new Map();
      for (const c of this.arrival.keys()) {
        for (const n of this.next(c)) {
          let list = this.predecessors.get(n);
          if (list === undefined) this.predecessors.set(n, (list = []));
          list.push(c);
        }
      }
    }
    return this.predecessors.get(cell) ?? [];
  }

  /** The cells one move from `cell`. */
  next(cell: number): number[] {
    let out = this.successors.get(cell);
    if (out !== undefined) return out;
    const set = new Set<number>();
    for (const d of DIRECTIONS) for (const n of this.landings(cell, d)) set.add(n);
    out = [...set].sort((a, b) => a - b);
    this.successors.set(cell, out);
    return out;
  }

  private landings(from: number, d: Direction): number[] {
    const board = this.board;
    const oracle = this.oracle();
    const to = stepFrom(from, d);
    const water = oracle.water(to);
    if (water === true) return [];
    const fromRaised = oracle.raised(from);
    const toRaised = oracle.raised(to);
    const out: number[] = [];
    for (const high of [true, false]) {
      if (fromRaised === !high) continue;
      if (!high && toRaised === true) continue;
      for (const branch of board.landing(to, d, high, oracle)) {
        if (branch.land !== 'death' && !branch.conds.includes(false)) out.push(branch.land);
      }
    }
    return out;
  }

  private oracle(): LandingOracle<Tri> {
    const board = this.board;
    return {
      raised: (c) => {
        switch (board.classOf(c)) {
          case 'water':
            return false;
          case 'fixed':
            return board.fixedRaised(c);
          case 'lift':
            return 'unknown';
          case 'green':
            return board.kinds(c).some((k) => k === 'GW' || k === 'BW') ? 'unknown' : false;
        }
      },
      water: (c) => {
        const cls = board.classOf(c);
        return cls === 'water' ? true : cls === 'green' ? 'unknown' : false;
      },
      not: (x) => (x === 'unknown' ? x : !x),
    };
  }
}
