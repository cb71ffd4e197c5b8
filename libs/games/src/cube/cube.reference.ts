import { CORNERS, CubeState, FIXED_CORNER, type Metric, solverMoves } from './cube.model.js';

/** Corner positions that move on a 2x2 solved with U, R and F (all but DBL). */
const FREE = CORNERS.map((_, i) => i).filter((i) => i !== FIXED_CORNER);
const PERMS = 5040;
const TWISTS = 729;
/** Number of 2x2 positions with DBL at home: 7! * 3^6. */
export const POCKET_STATES = PERMS * TWISTS;
const UNKNOWN = 255;

function factorial(n: number): number {
  return n <= 1 ? 1 : n * factorial(n - 1);
}

/** Rank of the permutation of the seven free corners (Lehmer code). */
function permRank(cp: ArrayLike<number>): number {
  const values = FREE.map((p) => FREE.indexOf(cp[p]!));
  let rank = 0;
  for (let i = 0; i < values.length; i++) {
    let smaller = 0;
    for (let j = i + 1; j < values.length; j++) if (values[j]! < values[i]!) smaller++;
    rank += smaller * factorial(values.length - 1 - i);
  }
  return rank;
}

function permUnrank(rank: number): Uint8Array {
  const pool = [...FREE];
  const cp = new Uint8Array(CORNERS.length);
  cp[FIXED_CORNER] = FIXED_CORNER;
  let r = rank;
  FREE.forEach((p, i) => {
    const f = factorial(FREE.length - 1 - i);
    const k = Math.floor(r / f);
    r %= f;
    cp[p] = pool.splice(k, 1)[0]!;
  });
  return cp;
}

/** Twists of the first six free corners in base 3 (the seventh follows from the sum). */
function twistRank(co: ArrayLike<number>): number {
  let rank = 0;
  for (let i = 0; i < 6; i++) rank = rank * 3 + co[FREE[i]!]!;
  return rank;
}

function twistUnrank(rank: number): Uint8Array {
  const co = new Uint8Array(CORNERS.length);
  let r = rank;
  let sum = 0;
  for (let i = 5; i >= 0; i--) {
    co[FREE[i]!] = r % 3;
    sum += r % 3;
    r = Math.floor(r / 3);
  }
  co[FREE[6]!] = (3 - (sum % 3)) % 3;
  return co;
}

/**
 * The exact distance to solved of every 2x2 position (3,674,160 with DBL at home), by
 * breadth-first search over U, R, F moves in one metric. It is the reference that tests check the
 * solver's optimality against, never a solver component.
 */
export class PocketCubeDistances {
  private static readonly cache = new Map<Metric, PocketCubeDistances>();

  private constructor(
    readonly metric: Metric,
    private readonly dist: Uint8Array,
  ) {}

  /** The table for a metric (built once per process, about a second). */
  static of(metric: Metric): PocketCubeDistances {
    let t = PocketCubeDistances.cache.get(metric);
    if (t === undefined) {
      t = new PocketCubeDistances(metric, PocketCubeDistances.build(metric));
      PocketCubeDistances.cache.set(metric, t);
    }
    return t;
  }

  /** The optimal solution length of a 2x2 state with DBL at home. */
  distance(state: CubeState): number {
    if (state.size !== 2 || state.cp[FIXED_CORNER] !== FIXED_CORNER || state.co[FIXED_CORNER] !== 0) {
      throw new RangeError('expects a 2x2 state with DBL at home');
    }
    return this.dist[permRank(state.cp) * TWISTS + twistRank(state.co)]!;
  }

  /** How many positions lie at each distance (index = distance). */
  histogram(): number[] {
    const h: number[] = [];
    for (const d of this.dist) h[d] = (h[d] ?? 0) + 1;
    return Array.from(h, (x) => x ?? 0);
  }

  /** The state of a table index (for picking positions at a given distance). */
  stateAt(index: number): CubeState {
    return new CubeState(
      2,
      permUnrank(Math.floor(index / TWISTS)),
      twistUnrank(index % TWISTS),
      new Uint8Array(0),
      new Uint8Array(0),
    );
  }

  /** Table indices of every position at exactly distance d. */
  indicesAt(d: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < this.dist.length; i++) if (this.dist[i] === d) out.push(i);
    return out;
  }

  private static build(metric: Metric): Uint8Array {
    const moves = solverMoves(2, metric).map((m) => CubeState.ofMove(2, m));
    const permMove = new Int32Array(PERMS * moves.length);
    for (let r = 0; r < PERMS; r++) {
      const cp = permUnrank(r);
      moves.forEach((m, k) => {
        permMove[r * moves.length + k] = permRank(Array.from(m.cp, (src) => cp[src]!));
      });
    }
    const twistMove = new Int32Array(TWISTS * moves.length);
    for (let r = 0; r < TWISTS; r++) {
      const co = twistUnrank(r);
      moves.forEach((m, k) => {
        twistMove[r * moves.length + k] = twistRank(Array.from(m.cp, (src, i) => (co[src]! + m.co[i]!) % 3));
      });
    }
    const dist = new Uint8Array(POCKET_STATES).fill(UNKNOWN);
    let frontier = new Int32Array([0]);
    dist[0] = 0;
    for (let d = 0; frontier.length > 0; d++) {
      const next: number[] = [];
      for (const index of frontier) {
        const p = Math.floor(index / TWISTS);
        const t = index % TWISTS;
        for (let k = 0; k < moves.length; k++) {
          const n = permMove[p * moves.length + k]! * TWISTS + twistMove[t * moves.length + k]!;
          if (dist[n] === UNKNOWN) {
            dist[n] = d + 1;
            next.push(n);
          }
        }
      }
      frontier = Int32Array.from(next);
    }
    return dist;
  }
}
