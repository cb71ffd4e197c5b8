/*
 * Packed pattern databases: the distance to solved of every index of a cubie coordinate
 * (`cube.coordinates.ts`), four bits an entry, found by breadth-first search over the indices.
 * Pure: the files that keep them between processes are `cube.table-cache.ts`'s business.
 */
import {
  CornerCoordinate,
  type CubieCoordinate,
  EDGE_GROUP,
  EdgeGroupCoordinate,
} from './cube.coordinates.js';
import { CubeState, type Metric } from './cube.model.js';
import { CubeSymmetry } from './cube.symmetry.js';

/** The entry of an index not reached yet (distances fit below it: 14 at most, corners in qtm). */
const UNSEEN = 15;

/** Distances 0..14, two to a byte (the even index in the low nibble). */
export class PackedDistances {
  constructor(
    readonly count: number,
    readonly bytes: Uint8Array,
  ) {
    if (bytes.length !== PackedDistances.byteLength(count))
      throw new RangeError(`a table of ${count} entries takes ${PackedDistances.byteLength(count)} bytes`);
  }

  static byteLength(count: number): number {
    return Math.ceil(count / 2);
  }

  get(index: number): number {
    const b = this.bytes[index >>> 1]!;
    return (index & 1) === 0 ? b & 15 : b >>> 4;
  }

  /** How many entries hold each distance (index = distance; the last counts unreached ones). */
  histogram(): number[] {
    const h = new Array<number>(16).fill(0);
    for (let i = 0; i < this.count; i++) h[this.get(i)]!++;
    while (h.length > 1 && h[h.length - 1] === 0) h.pop();
    return h;
  }
}

/** What one level of a search did, for progress reports and benchmarks. */
export interface SearchLevel {
  depth: number;
  /** Indices first reached at this depth. */
  found: number;
  /** Whether the level was found from the unreached side (each checks for a neighbour one closer). */
  backward: boolean;
}

/**
 * Breadth-first search over a coordinate's indices from `start` (default: the solved cube's
 * pattern). A level is expanded forwards (each index at the depth marks its unreached
 * successors) while its frontier is small, and backwards (each unreached index looks for a
 * successor at the depth) once fewer indices are left than the frontier holds: both reach the
 * same set, because every move set here holds each move's inverse.
 */
export function searchDistances(
  coord: CubieCoordinate,
  start: number = coord.index(CubeState.solved(3)),
  onLevel?: (level: SearchLevel) => void,
): PackedDistances {
  const n = coord.count;
  const bytes = new Uint8Array(PackedDistances.byteLength(n)).fill(0xff);
  const M = coord.moveCount;
  const out = new Uint32Array(M);
  const get = (i: number): number => {
    const b = bytes[i >>> 1]!;
    return (i & 1) === 0 ? b & 15 : b >>> 4;
  };
  const set = (i: number, d: number): void => {
    const at = i >>> 1;
    bytes[at] = (i & 1) === 0 ? (bytes[at]! & 0xf0) | d : (bytes[at]! & 0x0f) | (d << 4);
  };
  set(start, 0);
  onLevel?.({ depth: 0, found: 1, backward: false });
  let reached = 1;
  let frontier = 1;
  for (let depth = 0; frontier > 0 && reached < n; depth++) {
    if (depth + 1 >= UNSEEN) throw new RangeError(`${coord.name}: distances pass ${UNSEEN - 1}`);
    const next = depth + 1;
    // Forwards costs a lookup per successor of the frontier; backwards up to one per successor
    // of an unreached index, fewer once most of them find a neighbour at the depth early.
    const backward = n - reached < frontier;
    let found = 0;
    const byteCount = bytes.length;
    if (backward) {
      for (let at = 0; at < byteCount; at++) {
        const b = bytes[at]!;
        if ((b & 15) !== UNSEEN && b >>> 4 !== UNSEEN) continue;
        for (let i = at * 2; i < at * 2 + 2 && i < n; i++) {
          if (get(i) !== UNSEEN) continue;
          coord.successors(i, out);
          for (let k = 0; k < M; k++) {
            if (get(out[k]!) === depth) {
              set(i, next);
              found++;
              break;
            }
          }
        }
      }
    } else {
      for (let at = 0; at < byteCount; at++) {
        const b = bytes[at]!;
        if ((b & 15) !== depth && b >>> 4 !== depth) continue;
        for (let i = at * 2; i < at * 2 + 2 && i < n; i++) {
          if (get(i) !== depth) continue;
          coord.successors(i, out);
          for (let k = 0; k < M; k++) {
            const j = out[k]!;
            if (get(j) === UNSEEN) {
              set(j, next);
              found++;
            }
          }
        }
      }
    }
    if (found > 0) onLevel?.({ depth: next, found, backward });
    reached += found;
    frontier = found;
  }
  if (reached !== n) throw new RangeError(`${coord.name}: ${n - reached} of ${n} indices unreachable`);
  return new PackedDistances(n, bytes);
}

/**
 * A coordinate with its distances: the distance of a state's pattern is a lower bound, and so is
 * the distance of the pattern of each image of the state under `symmetries` (an image has the
 * state's distance to solved), which reads the table for other cubie groups too.
 */
export class PatternTable {
  constructor(
    readonly coordinate: CubieCoordinate,
    readonly distances: PackedDistances,
    readonly symmetries: readonly CubeSymmetry[] = [],
  ) {
    if (coordinate.count !== distances.count)
      throw new RangeError(
        `${coordinate.name} has ${coordinate.count} indices, the table ${distances.count}`,
      );
  }

  distance(state: CubeState): number {
    let d = this.distances.get(this.coordinate.index(state));
    for (const sym of this.symmetries)
      d = Math.max(d, this.distances.get(this.coordinate.index(sym.state(state))));
    return d;
  }
}

/** The coordinates of the strong 3x3 bound: all corners, and a six-edge group. */
export function strongCoordinates(metric: Metric): CubieCoordinate[] {
  return [new CornerCoordinate(metric), new EdgeGroupCoordinate(metric, EDGE_GROUP)];
}

/**
 * The strong 3x3 bound of its tables (`strongCoordinates`' order): the corners' distance, and the
 * edge group's read through all 48 symmetries, which covers two disjoint groups of six and 46
 * others; the largest of them (each move moves corners and edges together, so the distances do
 * not add up).
 */
export function strongCubeBound(metric: Metric, tables: readonly PackedDistances[]): StrongCubeBound {
  const coords = strongCoordinates(metric);
  if (tables.length !== coords.length)
    throw new RangeError(`the strong bound takes ${coords.length} tables, got ${tables.length}`);
  return new StrongCubeBound(metric, [
    new PatternTable(coords[0]!, tables[0]!),
    new PatternTable(coords[1]!, tables[1]!, CubeSymmetry.list().slice(1)),
  ]);
}

/** The largest distance of several pattern tables. */
export class StrongCubeBound {
  constructor(
    readonly metric: Metric,
    readonly tables: readonly PatternTable[],
  ) {}

  distance(state: CubeState): number {
    let d = 0;
    for (const t of this.tables) d = Math.max(d, t.distance(state));
    return d;
  }

  /** Bytes the tables hold. */
  get bytes(): number {
    return this.tables.reduce((sum, t) => sum + t.distances.bytes.length, 0);
  }
}
