import { type CubeSize, type Face, FACES, FaceletGeometry } from './cube.facelets.js';

export { type CubeSize, type Face, FACES } from './cube.facelets.js';

/** How a solution's length is counted: half-turn metric (X2 costs 1) or quarter-turn (X2 costs 2). */
export type Metric = 'htm' | 'qtm';

/** A face turn: `turns` clockwise quarter turns of `face` (1 = X, 2 = X2, 3 = X'). */
export interface Move {
  readonly face: Face;
  readonly turns: 1 | 2 | 3;
}

const SUFFIX = ['', '', '2', "'"] as const;

/** The 18 face moves in Singmaster notation, grouped by face in facelet order (U U2 U' R ...). */
export const MOVE_NAMES: readonly string[] = FACES.flatMap((f) => [f, `${f}2`, `${f}'`]);

/** The Singmaster name of a move: `R`, `R2`, `R'`. */
export function moveName(move: Move): string {
  return `${move.face}${SUFFIX[move.turns]}`;
}

/** Reads one move in Singmaster notation (`R`, `R2`, `R'`; `R2'` and `R’` are accepted too), or undefined. */
export function parseMove(text: string): Move | undefined {
  const m = /^([URFDLB])(2'?|'|’|2’)?$/.exec(text);
  if (m === null) return undefined;
  const face = m[1] as Face;
  const suffix = m[2] ?? '';
  const turns = suffix.startsWith('2') ? 2 : suffix === '' ? 1 : 3;
  return { face, turns };
}

/** The move that undoes `move`. */
export function inverseMove(move: Move): Move {
  return { face: move.face, turns: (4 - move.turns) as 1 | 2 | 3 };
}

/** The cost of a move in a metric. */
export function moveCost(move: Move, metric: Metric): number {
  return metric === 'qtm' && move.turns === 2 ? 2 : 1;
}

/**
 * The moves a solver uses: all six faces for the 3x3, U R F only for the 2x2 (whose DBL corner
 * stays fixed); every turn in the half-turn metric, quarter turns only in the quarter-turn metric
 * (a half turn is then two steps).
 */
export function solverMoves(size: CubeSize, metric: Metric): Move[] {
  const faces: readonly Face[] = size === 2 ? ['U', 'R', 'F'] : FACES;
  const turns: (1 | 2 | 3)[] = metric === 'htm' ? [1, 2, 3] : [1, 3];
  return faces.flatMap((face) => turns.map((t) => ({ face, turns: t })));
}

/** The corner positions (and cubies) in Kociemba's order; the letters name the facelets clockwise. */
export const CORNERS = ['URF', 'UFL', 'ULB', 'UBR', 'DFR', 'DLF', 'DBL', 'DRB'] as const;
/** The edge positions (and cubies) in Kociemba's order. */
export const EDGES = ['UR', 'UF', 'UL', 'UB', 'DR', 'DF', 'DL', 'DB', 'FR', 'FL', 'BL', 'BR'] as const;
/** The corner a 2x2 keeps fixed: solutions use U, R and F only. */
export const FIXED_CORNER = CORNERS.indexOf('DBL');

const faces = (name: string): Face[] => name.split('') as Face[];

/**
 * A cube to solve, as plain data (it travels as JSON): the start position as a facelet string in
 * face letters (for the 2x2, with the DBL corner at home: see `parseCubeInstance`).
 */
export interface CubeInstance {
  size: CubeSize;
  metric: Metric;
  facelets: string;
  /** The scramble the position came from, when it was given as one. */
  scramble?: string[];
}

/**
 * A plan: face moves in Singmaster notation, applied in order, and the metric its length is
 * counted in (in the quarter-turn metric `U2` counts 2).
 */
export interface CubeSolution {
  moves: string[];
  metric?: Metric;
}

/** A facelet string describes no reachable cube; `reason` says why. */
export class InvalidCubeError extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'InvalidCubeError';
  }
}

/**
 * A cube at cubie level: `cp[i]` is the corner cubie at corner position i and `co[i]` its twist
 * (which of the position's facelets, in name order, shows the cubie's U or D colour); `ep`/`eo`
 * the same for edges (empty for the 2x2). This is Kociemba's representation.
 */
export class CubeState {
  private static readonly moveTables = new Map<string, CubeState>();

  constructor(
    readonly size: CubeSize,
    readonly cp: Uint8Array,
    readonly co: Uint8Array,
    readonly ep: Uint8Array,
    readonly eo: Uint8Array,
  ) {}

  /** The solved cube of a size. */
  static solved(size: CubeSize): CubeState {
    const edges = size === 3 ? EDGES.length : 0;
    return new CubeState(
      size,
      Uint8Array.from(CORNERS, (_, i) => i),
      new Uint8Array(CORNERS.length),
      Uint8Array.from({ length: edges }, (_, i) => i),
      new Uint8Array(edges),
    );
  }

  /**
   * The effect of `move` on the solved cube, which is the move's table in "replaced by" form:
   * after the move, position i holds what position `cp[i]` held, twisted by `co[i]`.
   */
  static ofMove(size: CubeSize, move: Move): CubeState {
    const k = `${size}:${moveName(move)}`;
    let table = CubeState.moveTables.get(k);
    if (table === undefined) {
      const facelets = applyMoveToFacelets(size, solvedFacelets(size), move);
      table = CubeState.fromFacelets(size, facelets);
      CubeState.moveTables.set(k, table);
    }
    return table;
  }

  /** The state after `move`. */
  apply(move: Move): CubeState {
    return this.compose(CubeState.ofMove(this.size, move));
  }

  /** The state after every move in order. */
  applyAll(moves: readonly Move[]): CubeState {
    return moves.reduce<CubeState>((s, m) => s.apply(m), this);
  }

  /** This state followed by `other` seen as a permutation (other's table in "replaced by" form). */
  compose(other: CubeState): CubeState {
    const cp = new Uint8Array(this.cp.length);
    const co = new Uint8Array(this.co.length);
    for (let i = 0; i < cp.length; i++) {
      const from = other.cp[i]!;
      cp[i] = this.cp[from]!;
      co[i] = (this.co[from]! + other.co[i]!) % 3;
    }
    const ep = new Uint8Array(this.ep.length);
    const eo = new Uint8Array(this.eo.length);
    for (let i = 0; i < ep.length; i++) {
      const from = other.ep[i]!;
      ep[i] = this.ep[from]!;
      eo[i] = (this.eo[from]! + other.eo[i]!) % 2;
    }
    return new CubeState(this.size, cp, co, ep, eo);
  }

  /** Whether every cubie is home and untwisted. */
  isSolved(): boolean {
    return this.equals(CubeState.solved(this.size));
  }

  equals(other: CubeState): boolean {
    const same = (a: Uint8Array, b: Uint8Array): boolean =>
      a.length === b.length && a.every((x, i) => x === b[i]);
    return (
      this.size === other.size &&
      same(this.cp, other.cp) &&
      same(this.co, other.co) &&
      same(this.ep, other.ep) &&
      same(this.eo, other.eo)
    );
  }

  /** The facelet string (face letters U R F D L B, Kociemba order) of this state. */
  toFacelets(): string {
    const g = FaceletGeometry.of(this.size);
    const out = solvedFacelets(this.size).split('');
    CORNERS.forEach((pos, i) => {
      const cubie = faces(CORNERS[this.cp[i]!]!);
      const at = faces(pos);
      for (let k = 0; k < 3; k++) out[g.faceletOf(at, at[(k + this.co[i]!) % 3]!)] = cubie[k]!;
    });
    for (let i = 0; i < this.ep.length; i++) {
      const cubie = faces(EDGES[this.ep[i]!]!);
      const at = faces(EDGES[i]!);
      for (let k = 0; k < 2; k++) out[g.faceletOf(at, at[(k + this.eo[i]!) % 2]!)] = cubie[k]!;
    }
    return out.join('');
  }

  /**
   * The state of a facelet string written in face letters (each sticker named by the face whose
   * colour it has). Throws `InvalidCubeError` for a cubie that does not exist, a cubie seen twice,
   * an impossible corner twist, edge flip or permutation parity.
   */
  static fromFacelets(size: CubeSize, facelets: string): CubeState {
    const g = FaceletGeometry.of(size);
    const cp = new Uint8Array(CORNERS.length);
    const co = new Uint8Array(CORNERS.length);
    CORNERS.forEach((pos, i) => {
      const at = faces(pos);
      const colours = at.map((f) => facelets[g.faceletOf(at, f)]!);
      const twist = colours.findIndex((c) => c === 'U' || c === 'D');
      const rotated = [0, 1, 2].map((k) => colours[(twist + k) % 3]).join('');
      const cubie = twist < 0 ? -1 : CORNERS.indexOf(rotated as (typeof CORNERS)[number]);
      if (cubie < 0)
        throw new InvalidCubeError(`corner at ${pos} has colours ${colours.join('')}, which no corner has`);
      cp[i] = cubie;
      co[i] = twist;
    });
    const ep = new Uint8Array(size === 3 ? EDGES.length : 0);
    const eo = new Uint8Array(ep.length);
    for (let i = 0; i < ep.length; i++) {
      const at = faces(EDGES[i]!);
      const colours = at.map((f) => facelets[g.faceletOf(at, f)]!).join('');
      const straight = EDGES.indexOf(colours as (typeof EDGES)[number]);
      const flipped = EDGES.indexOf((colours[1]! + colours[0]!) as (typeof EDGES)[number]);
      if (straight < 0 && flipped < 0)
        throw new InvalidCubeError(`edge at ${EDGES[i]} has colours ${colours}, which no edge has`);
      ep[i] = straight >= 0 ? straight : flipped;
      eo[i] = straight >= 0 ? 0 : 1;
    }
    const state = new CubeState(size, cp, co, ep, eo);
    state.checkReachable();
    return state;
  }

  /** Throws `InvalidCubeError` unless a sequence of face moves reaches this state from solved. */
  checkReachable(): void {
    const twice = (perm: Uint8Array, names: readonly string[], kind: string): void => {
      const seen = new Uint8Array(names.length);
      for (const c of perm) {
        if (seen[c]) throw new InvalidCubeError(`${kind} ${names[c]} appears twice`);
        seen[c] = 1;
      }
    };
    twice(this.cp, CORNERS, 'corner');
    twice(this.ep, EDGES, 'edge');
    const twist = this.co.reduce((a, b) => a + b, 0) % 3;
    if (twist !== 0)
      throw new InvalidCubeError(`corner twist is impossible (sum of twists is ${twist} mod 3)`);
    const flip = this.eo.reduce((a, b) => a + b, 0) % 2;
    if (flip !== 0) throw new InvalidCubeError('edge parity: an odd number of edges is flipped');
    if (this.size === 3 && permutationParity(this.cp) !== permutationParity(this.ep)) {
      throw new InvalidCubeError(
        'permutation parity: the corner and edge permutations differ in parity (two pieces swapped)',
      );
    }
  }
}

/** 0 for an even permutation, 1 for an odd one. */
export function permutationParity(perm: ArrayLike<number>): number {
  let parity = 0;
  const seen = new Uint8Array(perm.length);
  for (let i = 0; i < perm.length; i++) {
    if (seen[i]) continue;
    let len = 0;
    for (let j = i; !seen[j]; j = perm[j]!) {
      seen[j] = 1;
      len++;
    }
    parity ^= (len - 1) & 1;
  }
  return parity;
}

/** The solved facelet string: each face's letter n * n times. */
export function solvedFacelets(size: CubeSize): string {
  return FACES.map((f) => f.repeat(size * size)).join('');
}

/** The facelet string after `move`, by moving stickers (independent of the cubie model). */
export function applyMoveToFacelets(size: CubeSize, facelets: string, move: Move): string {
  const g = FaceletGeometry.of(size);
  const out = new Array<string>(g.count);
  for (let i = 0; i < g.count; i++) out[g.target(move.face, move.turns, i)] = facelets[i]!;
  return out.join('');
}

/** Whether every face of a facelet string shows one colour. */
export function faceletsSolved(size: CubeSize, facelets: string): boolean {
  const n = size * size;
  for (let f = 0; f < 6; f++) {
    for (let k = 1; k < n; k++) if (facelets[f * n + k] !== facelets[f * n]) return false;
  }
  return true;
}
