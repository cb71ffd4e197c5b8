/*
 * The 48 symmetries of the cube (24 rotations, 24 with a reflection) acting on positions: a
 * position seen turned or mirrored, its colours renamed after the faces they now face. A
 * symmetry sends face turns to face turns of the same kind (a reflection reverses their sense),
 * so a position and its images have the same distance to solved in either metric, and a pattern
 * table of one cubie group bounds the images of that group too (`StrongCubeBound`).
 */
import { FACE_NORMAL, FACES, type Face, FaceletGeometry } from './cube.facelets.js';
import { CORNERS, CubeState, EDGES, type Move } from './cube.model.js';

type Row = readonly [number, number, number];
type Matrix = readonly [Row, Row, Row];

const NORMAL: Record<Face, Row> = FACE_NORMAL;

const apply = (m: Matrix, v: Row): Row => [
  m[0][0] * v[0] + m[0][1] * v[1] + m[0][2] * v[2],
  m[1][0] * v[0] + m[1][1] * v[1] + m[1][2] * v[2],
  m[2][0] * v[0] + m[2][1] * v[1] + m[2][2] * v[2],
];

const faceAlong = (v: Row): Face => FACES.find((f) => NORMAL[f].every((x, i) => x === v[i]))!;

/** The 48 signed permutation matrices, the identity first. */
function matrices(): Matrix[] {
  const perms = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
  ];
  const out: Matrix[] = [];
  for (const perm of perms) {
    for (let signs = 0; signs < 8; signs++) {
      const rows = perm.map((col, r) => {
        const row: [number, number, number] = [0, 0, 0];
        row[col] = (signs >> r) & 1 ? -1 : 1;
        return row;
      });
      out.push(rows as unknown as Matrix);
    }
  }
  return out;
}

const determinant = (m: Matrix): number =>
  m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
  m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
  m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);

/**
 * How a symmetry acts on one kind of cubie (corners or edges), read off its sticker map: the new
 * position q holds what old position `from[q]` held, the old cubie c becomes `cubie[c]`, and
 * the new orientation is `twist[q][(lead[c] + old orientation) % n]` (see `CubeSymmetry.state`).
 */
interface CubieAction {
  from: Uint8Array;
  cubie: Uint8Array;
  lead: Uint8Array;
  twist: Uint8Array[];
}

function cubieAction(
  names: readonly string[],
  target: Int16Array,
  faceImage: Readonly<Record<Face, Face>>,
): CubieAction {
  const g = FaceletGeometry.of(3);
  const n = names[0]!.length;
  const facelet = names.map((name) => {
    const faces = name.split('') as Face[];
    return faces.map((f) => g.faceletOf(faces, f));
  });
  const at = new Map<number, [number, number]>();
  facelet.forEach((fs, p) => fs.forEach((x, m) => at.set(x, [p, m])));
  const source = new Int16Array(target.length);
  target.forEach((to, i) => (source[to] = i));
  const from = new Uint8Array(names.length);
  const twist = names.map(() => new Uint8Array(n));
  facelet.forEach((fs, q) =>
    fs.forEach((x, k) => {
      // New sticker k of position q shows what old sticker m of position p showed.
      const [p, m] = at.get(source[x]!)!;
      from[q] = p;
      twist[q]![m] = k;
    }),
  );
  const cubie = new Uint8Array(names.length);
  const lead = new Uint8Array(names.length);
  names.forEach((name, c) => {
    const colours = (name.split('') as Face[]).map((f) => faceImage[f]);
    const image = names.findIndex(
      (other) => other.length === n && colours.every((col) => other.includes(col)),
    );
    cubie[c] = image;
    // The old colour that becomes the new cubie's first (the one its orientation follows).
    lead[c] = colours.indexOf(names[image]![0] as Face);
  });
  return { from, cubie, lead, twist };
}

/** One symmetry of the 3x3: its sticker map and colour renaming. */
export class CubeSymmetry {
  private static all: CubeSymmetry[] | undefined;
  private readonly corners: CubieAction;
  private readonly edges: CubieAction;

  private constructor(
    /** Whether it mirrors (and so reverses the sense of every turn). */
    readonly reflection: boolean,
    /** `target[i]`: where sticker i goes. */
    private readonly target: Int16Array,
    /** The face each face goes to, which renames the colour of that face's centre. */
    readonly faceImage: Readonly<Record<Face, Face>>,
  ) {
    this.corners = cubieAction(CORNERS, target, faceImage);
    this.edges = cubieAction(EDGES, target, faceImage);
  }

  /** The 48 symmetries of the 3x3, the identity first. */
  static list(): readonly CubeSymmetry[] {
    if (CubeSymmetry.all === undefined) {
      const g = FaceletGeometry.of(3);
      CubeSymmetry.all = matrices().map((m) => {
        const faceImage = Object.fromEntries(FACES.map((f) => [f, faceAlong(apply(m, NORMAL[f]))])) as Record<
          Face,
          Face
        >;
        return new CubeSymmetry(determinant(m) < 0, g.transformed(m), faceImage);
      });
    }
    return CubeSymmetry.all;
  }

  /** The position seen through this symmetry, as a facelet string. */
  facelets(facelets: string): string {
    const out = new Array<string>(facelets.length);
    for (let i = 0; i < facelets.length; i++) out[this.target[i]!] = this.faceImage[facelets[i] as Face];
    return out.join('');
  }

  /** The position seen through this symmetry (what `facelets` gives, at cubie level). */
  state(state: CubeState): CubeState {
    const image = (
      a: CubieAction,
      perm: Uint8Array,
      ori: Uint8Array,
      n: number,
    ): [Uint8Array, Uint8Array] => {
      const p2 = new Uint8Array(perm.length);
      const o2 = new Uint8Array(perm.length);
      for (let q = 0; q < perm.length; q++) {
        const p = a.from[q]!;
        const c = perm[p]!;
        p2[q] = a.cubie[c]!;
        o2[q] = a.twist[q]![(a.lead[c]! + ori[p]!) % n]!;
      }
      return [p2, o2];
    };
    const [cp, co] = image(this.corners, state.cp, state.co, 3);
    const [ep, eo] = image(this.edges, state.ep, state.eo, 2);
    return new CubeState(3, cp, co, ep, eo);
  }

  /** The image of a move: the turn of the face it goes to, reversed by a reflection. */
  move(move: Move): Move {
    const turns = this.reflection ? ((4 - move.turns) as 1 | 2 | 3) : move.turns;
    return { face: this.faceImage[move.face], turns };
  }
}
