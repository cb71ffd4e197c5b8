import type { CubieCoordinate } from './cube.coordinates.js';
import {
  type Face,
  type Metric,
  type Move,
  CubeState,
  permutationParity,
  solverMoves,
} from './cube.model.js';
import type { StrongCubeBound } from './cube.pattern-table.js';
import type { CubeSymmetry } from './cube.symmetry.js';

/**
 * One distance table the search consults: a coordinate of the state seen through a symmetry.
 * A symmetry maps every move to a move (`CubeSymmetry.move`), so the coordinate of the seen state
 * follows the mapped move's table entry and the search never rebuilds a state.
 */
export interface SearchPattern {
  readonly coordinate: CubieCoordinate;
  readonly distances: { get(index: number): number };
  /** The identity when absent. */
  readonly symmetry?: CubeSymmetry;
}

export interface BoundSearchResult {
  /** No solution is shorter: a lower bound on the optimum. */
  readonly bound: number;
  /** The search found a solution of length `bound`, so the bound is the optimum. */
  readonly exact: boolean;
  /** Nodes the search generated. */
  readonly nodes: number;
  /** The solution found, when `exact`: `bound` moves of the metric. */
  readonly plan?: readonly Move[];
}

/** Faces in facelet order; the second of each opposite pair (D L B) follows its first (U R F). */
const AXIS_SECOND: Readonly<Record<Face, boolean>> = {
  U: false,
  R: false,
  F: false,
  D: true,
  L: true,
  B: true,
};
const OPPOSITE: Readonly<Record<Face, Face>> = { U: 'D', R: 'L', F: 'B', D: 'U', L: 'R', B: 'F' };

/**
 * Which move may follow which in a canonical sequence: every sequence has a canonical one at
 * most as long, so searching canonical ones only misses no optimum. No face right after itself
 * (qtm: the same quarter turn twice, never three times, never a turn and its inverse), and of two
 * opposite faces in a row the first of the pair first (they commute).
 * `allowed[prev2 * M + prev][next]`, with M standing for "no move" as `prev`/`prev2`.
 */
function canonicalFollowers(moves: readonly Move[], metric: Metric): Uint8Array[] {
  const M = moves.length;
  const table: Uint8Array[] = [];
  for (let p2 = 0; p2 <= M; p2++)
    for (let p = 0; p <= M; p++) {
      const row = new Uint8Array(M);
      for (let n = 0; n < M; n++) {
        const next = moves[n]!;
        const prev = p < M ? moves[p] : undefined;
        const before = p2 < M ? moves[p2] : undefined;
        let ok = true;
        if (prev !== undefined) {
          if (prev.face === next.face) {
            ok =
              metric === 'qtm' &&
              prev.turns === next.turns &&
              !(before !== undefined && before.face === next.face);
          } else if (OPPOSITE[prev.face] === next.face && AXIS_SECOND[prev.face]) ok = false;
        }
        row[n] = ok ? 1 : 0;
      }
      table.push(row);
    }
  return table;
}

/**
 * The patterns of the strong tables for the search: the corners, and the edge group through each
 * symmetry that tracks a set of edges no earlier one tracks (the same set gives the same
 * distance). `maxEdgeSets` caps how many (each costs a lookup per node).
 */
export function strongSearchPatterns(strong: StrongCubeBound, maxEdgeSets = Infinity): SearchPattern[] {
  const patterns: SearchPattern[] = [];
  const solved = CubeState.solved(3);
  for (const table of strong.tables) {
    if (table.symmetries.length === 0) {
      patterns.push({ coordinate: table.coordinate, distances: table.distances });
      continue;
    }
    const seen = new Set<string>();
    let kept = 0;
    for (const symmetry of [undefined, ...table.symmetries]) {
      if (kept >= maxEdgeSets) break;
      // The edges this reading tracks: those whose positions change the coordinate of the seen state.
      const key = trackedKey(table.coordinate, symmetry, solved);
      if (seen.has(key)) continue;
      seen.add(key);
      kept++;
      patterns.push({ coordinate: table.coordinate, distances: table.distances, symmetry });
    }
  }
  return patterns;
}

function trackedKey(
  coordinate: CubieCoordinate,
  symmetry: CubeSymmetry | undefined,
  solved: CubeState,
): string {
  const seen = (s: CubeState) => coordinate.index(symmetry === undefined ? s : symmetry.state(s));
  const base = seen(solved);
  const tracked: number[] = [];
  // Flipping the edge at p changes the coordinate exactly when the reading tracks that edge.
  for (let p = 0; p < 12; p++) {
    const eo = Uint8Array.from(solved.eo);
    eo[p] = 1;
    if (seen(new CubeState(3, solved.cp, solved.co, solved.ep, eo)) !== base) tracked.push(p);
  }
  return tracked.join(',');
}

/**
 * A lower bound on the shortest solution of a 3x3 state, raised by iterative-deepening search
 * over canonical move sequences pruned by the patterns' distances (each admissible): a threshold
 * searched to the end without a solution proves every solution longer than it. It stops when
 * it has generated `nodeBudget` nodes, keeping the last threshold it proved, or
 * when it finds a solution (then the bound is the optimum). Deterministic: the budget counts
 * nodes, not time.
 */
export function searchLowerBound(
  state: CubeState,
  metric: Metric,
  patterns: readonly SearchPattern[],
  options: { start: number; nodeBudget: number },
): BoundSearchResult {
  const moves = solverMoves(3, metric);
  const M = moves.length;
  const P = patterns.length;
  const followers = canonicalFollowers(moves, metric);
  // moveMap[i][k]: the move of pattern i's seen state when the state makes move k.
  const moveMap = patterns.map((pat) => {
    if (pat.symmetry === undefined) return Uint8Array.from(moves, (_, k) => k);
    const sym = pat.symmetry;
    return Uint8Array.from(moves, (m) => {
      const image = sym.move(m);
      const k = moves.findIndex((x) => x.face === image.face && x.turns === image.turns);
      if (k < 0) throw new RangeError(`symmetry maps ${m.face}${m.turns} outside the moves`);
      return k;
    });
  });
  for (const pat of patterns) pat.coordinate.prepare();
  const root = patterns.map((pat) =>
    pat.coordinate.index(pat.symmetry === undefined ? state : pat.symmetry.state(state)),
  );
  const parity = metric === 'qtm' ? permutationParity(state.cp) : -1;
  const step = metric === 'qtm' ? 2 : 1;
  const fix = (b: number) => (parity >= 0 && b % 2 !== parity ? b + 1 : b);

  const heuristic = (indices: ArrayLike<number>): number => {
    let h = 0;
    for (let i = 0; i < P; i++) {
      const d = patterns[i]!.distances.get(indices[i]!);
      if (d > h) h = d;
    }
    return h;
  };

  let nodes = 0;
  let bound = fix(Math.max(options.start, heuristic(root)));
  const path: number[] = [];
  // Scratch per depth: each pattern's successors, and the chosen child's indices.
  const succ: Uint32Array[][] = [];
  const at: Uint32Array[] = [];
  const ensureDepth = (d: number) => {
    while (succ.length <= d) {
      succ.push(patterns.map(() => new Uint32Array(M)));
      at.push(new Uint32Array(P));
    }
  };
  ensureDepth(0);
  at[0]!.set(root);

  let nextThreshold = Infinity;
  let exhausted = false;
  const isSolution = (): boolean => state.applyAll(path.map((k) => moves[k]!)).isSolved();

  // Depth-first below a node at depth g with path[0..g-1]; true when a solution is found.
  const dfs = (g: number, threshold: number, prev: number, prev2: number): boolean => {
    const here = at[g]!;
    const h = heuristic(here);
    if (g + h > threshold) {
      if (g + h < nextThreshold) nextThreshold = g + h;
      return false;
    }
    if (h === 0 && isSolution()) return true;
    if (g === threshold) {
      if (g + 1 < nextThreshold) nextThreshold = g + 1;
      return false;
    }
    ensureDepth(g + 1);
    const out = succ[g]!;
    for (let i = 0; i < P; i++) patterns[i]!.coordinate.successors(here[i]!, out[i]!);
    const allowed = followers[prev2 * (M + 1) + prev]!;
    const child = at[g + 1]!;
    for (let k = 0; k < M; k++) {
      if (allowed[k] === 0) continue;
      if (++nodes > options.nodeBudget) {
        exhausted = true;
        return false;
      }
      for (let i = 0; i < P; i++) child[i] = out[i]![moveMap[i]![k]!]!;
      path.push(k);
      if (dfs(g + 1, threshold, k, prev)) return true;
      path.pop();
      if (exhausted) return false;
    }
    return false;
  };

  for (;;) {
    nextThreshold = Infinity;
    path.length = 0;
    if (dfs(0, bound, M, M)) return { bound, exact: true, nodes, plan: path.map((k) => moves[k]!) };
    if (exhausted) return { bound, exact: false, nodes };
    // Every sequence of length <= bound was refuted; in qtm lengths keep the corners' parity.
    bound = fix(Math.max(bound + step, nextThreshold));
  }
}
