/**
 * Facelet geometry of the n x n x n cube (n = 2 or 3), derived from coordinates rather than
 * typed-in tables: every sticker is a point in space, a face turn is a rotation of the points in
 * that face's layer, and a move's facelet permutation is read off the rotated points.
 *
 * Facelet order is Kociemba's: faces U R F D L B, n * n stickers each, row by row as the face is
 * seen from outside with U on top (for U: B on top; for D: F on top).
 */

/** The six faces in facelet order. */
export const FACES = ['U', 'R', 'F', 'D', 'L', 'B'] as const;
export type Face = (typeof FACES)[number];

/** Cube sizes supported: the 2x2x2 and the 3x3x3. */
export type CubeSize = 2 | 3;

type Vec = readonly [number, number, number];

/** Each face's outward normal (x right, y up, z front). */
export const FACE_NORMAL: Record<Face, Vec> = {
  U: [0, 1, 0],
  R: [1, 0, 0],
  F: [0, 0, 1],
  D: [0, -1, 0],
  L: [-1, 0, 0],
  B: [0, 0, -1],
};

const dot = (a: Vec, b: Vec): number => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const key = (v: Vec): string => v.join(',');

/**
 * The point of sticker (row, col) of `face` on a cube of size n. Cubie centres sit at odd/even
 * coordinates -(n-1), ..., n-1 in steps of 2; a sticker lies one unit outside its cubie.
 */
function stickerPoint(n: number, face: Face, row: number, col: number): Vec {
  const r = 2 * row - (n - 1);
  const c = 2 * col - (n - 1);
  switch (face) {
    case 'U':
      return [c, n, r];
    case 'R':
      return [n, -r, -c];
    case 'F':
      return [c, -r, n];
    case 'D':
      return [c, -n, -r];
    case 'L':
      return [-n, -r, c];
    case 'B':
      return [-c, -r, -n];
  }
}

/** Clockwise quarter turn about `axis` as seen from outside: v -> a(a.v) - a x v. */
function rotateClockwise(axis: Vec, v: Vec): Vec {
  const [ax, ay, az] = axis;
  const [x, y, z] = v;
  const d = dot(axis, v);
  return [ax * d - (ay * z - az * y), ay * d - (az * x - ax * z), az * d - (ax * y - ay * x)];
}

/** The geometry of one cube size: sticker points and the facelet permutation of each face turn. */
export class FaceletGeometry {
  private static readonly bySize = new Map<CubeSize, FaceletGeometry>();

  /** Stickers per face (n * n). */
  readonly perFace: number;
  /** Total stickers (6 n^2). */
  readonly count: number;
  private readonly points: Vec[] = [];
  private readonly indexOfPoint = new Map<string, number>();
  /** `quarterTarget[f][i]`: where sticker i goes under a clockwise quarter turn of face f. */
  private readonly quarterTarget = new Map<Face, Int16Array>();

  private constructor(readonly size: CubeSize) {
    this.perFace = size * size;
    this.count = 6 * this.perFace;
    for (const face of FACES) {
      for (let row = 0; row < size; row++) {
        for (let col = 0; col < size; col++) {
          const p = stickerPoint(size, face, row, col);
          this.indexOfPoint.set(key(p), this.points.length);
          this.points.push(p);
        }
      }
    }
    for (const face of FACES) {
      const axis = FACE_NORMAL[face];
      const target = new Int16Array(this.count);
      for (let i = 0; i < this.count; i++) {
        const p = this.points[i]!;
        target[i] = dot(p, axis) >= size - 1 ? this.at(rotateClockwise(axis, p)) : i;
      }
      this.quarterTarget.set(face, target);
    }
  }

  /** The shared geometry of size n. */
  static of(size: CubeSize): FaceletGeometry {
    let g = FaceletGeometry.bySize.get(size);
    if (g === undefined) {
      g = new FaceletGeometry(size);
      FaceletGeometry.bySize.set(size, g);
    }
    return g;
  }

  /** The face a facelet index lies on. */
  faceOf(index: number): Face {
    return FACES[Math.floor(index / this.perFace)]!;
  }

  /** Where sticker `index` goes under `turns` clockwise quarter turns of `face`. */
  target(face: Face, turns: number, index: number): number {
    const t = this.quarterTarget.get(face)!;
    let i = index;
    for (let k = 0; k < turns; k++) i = t[i]!;
    return i;
  }

  /**
   * The facelet on `face` of the cubie whose faces are `cubieFaces` (2 names for an edge, 3 for a
   * corner; the unnamed axis sits in the middle layer).
   */
  faceletOf(cubieFaces: readonly Face[], face: Face): number {
    const centre: [number, number, number] = [0, 0, 0];
    for (const f of cubieFaces) {
      const nrm = FACE_NORMAL[f];
      for (let a = 0; a < 3; a++) centre[a]! += nrm[a]! * (this.size - 1);
    }
    const nrm = FACE_NORMAL[face];
    return this.at([centre[0] + nrm[0], centre[1] + nrm[1], centre[2] + nrm[2]]);
  }

  /**
   * Where each sticker goes under a linear map of space that takes the cube onto itself (a
   * whole-cube rotation or reflection, as a signed permutation matrix, row by row).
   */
  transformed(matrix: readonly (readonly [number, number, number])[]): Int16Array {
    const out = new Int16Array(this.count);
    for (let i = 0; i < this.count; i++) {
      const p = this.points[i]!;
      out[i] = this.at([dot(matrix[0]!, p), dot(matrix[1]!, p), dot(matrix[2]!, p)]);
    }
    return out;
  }

  /** The index of the centre sticker of `face` (size 3 only). */
  centreOf(face: Face): number {
    return FACES.indexOf(face) * this.perFace + (this.perFace - 1) / 2;
  }

  private at(p: Vec): number {
    const i = this.indexOfPoint.get(key(p));
    if (i === undefined) throw new Error(`no sticker at ${key(p)}`);
    return i;
  }
}
