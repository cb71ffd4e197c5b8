import { GoalPerimeter } from './cube.perimeter.js';
import type { StrongCubeBound } from './cube.pattern-table.js';
import { boundSearchNodes, loadStrongCubeBound } from './cube.table-cache.js';
import { type SearchPattern, searchLowerBound, strongSearchPatterns } from './cube.bound-search.js';
import { mergeTurns } from './cube.decode.js';
import {
  type CubeInstance,
  type CubeSolution,
  CubeState,
  type CubeSize,
  type Metric,
  type Move,
  moveName,
  permutationParity,
  solverMoves,
} from './cube.model.js';

/**
 * A pattern: what is kept of a state when the rest is forgotten. `co`/`eo` keep the twist or
 * flip at every position; `cp`/`ep` keep where the listed cubies are (the others look alike).
 */
export interface PatternSpec {
  readonly kind: 'co' | 'eo' | 'cp' | 'ep';
  /** For `cp`/`ep`: the tracked cubies (default: all). */
  readonly cubies?: readonly number[];
}

const WILD = 255;

/** The name of a pattern, e.g. `cp` or `ep:8,9,10,11`. */
export function patternName(spec: PatternSpec): string {
  return spec.cubies === undefined ? spec.kind : `${spec.kind}:${spec.cubies.join(',')}`;
}

/** The pattern values of a state (position-indexed). */
export function projectPattern(spec: PatternSpec, state: CubeState): Uint8Array {
  const src =
    spec.kind === 'co' ? state.co : spec.kind === 'eo' ? state.eo : spec.kind === 'cp' ? state.cp : state.ep;
  if (spec.kind === 'co' || spec.kind === 'eo' || spec.cubies === undefined) return Uint8Array.from(src);
  const tracked = new Set(spec.cubies);
  return Uint8Array.from(src, (c) => (tracked.has(c) ? c : WILD));
}

/** The pattern after a move given as a state table (see `CubeState.ofMove`). */
function movePattern(spec: PatternSpec, values: Uint8Array, move: CubeState): Uint8Array {
  const out = new Uint8Array(values.length);
  const corner = spec.kind === 'co' || spec.kind === 'cp';
  const src = corner ? move.cp : move.ep;
  const twist = corner ? move.co : move.eo;
  const modulus = spec.kind === 'co' ? 3 : 2;
  for (let i = 0; i < out.length; i++) {
    const v = values[src[i]!]!;
    out[i] = spec.kind === 'co' || spec.kind === 'eo' ? (v + twist[i]!) % modulus : v;
  }
  return out;
}

const keyOf = (values: Uint8Array): string => String.fromCharCode(...values);
const valuesOf = (key: string): Uint8Array => Uint8Array.from(key, (c) => c.charCodeAt(0));

/**
 * Distances in a pattern space, by breadth-first search from one pattern (the solved one, or a
 * start position's). A pattern's distance to solved never exceeds the distance of any state with
 * that pattern, so it is an admissible lower bound.
 */
export class PatternDatabase {
  private static readonly cache = new Map<string, PatternDatabase>();

  private constructor(
    readonly spec: PatternSpec,
    private readonly distances: Map<string, number>,
    readonly maxDistance: number,
  ) {}

  /** The database of distances to solved (cached per size, metric and pattern). */
  static toSolved(size: CubeSize, metric: Metric, spec: PatternSpec): PatternDatabase {
    const k = `${size}:${metric}:${patternName(spec)}`;
    let db = PatternDatabase.cache.get(k);
    if (db === undefined) {
      db = PatternDatabase.from(CubeState.solved(size), metric, spec);
      PatternDatabase.cache.set(k, db);
    }
    return db;
  }

  /** The database of distances from `origin`'s pattern (moves are invertible, so also to it). */
  static from(origin: CubeState, metric: Metric, spec: PatternSpec): PatternDatabase {
    const moves = solverMoves(origin.size, metric).map((m) => CubeState.ofMove(origin.size, m));
    const start = keyOf(projectPattern(spec, origin));
    const distances = new Map<string, number>([[start, 0]]);
    let frontier = [start];
    let depth = 0;
    while (frontier.length > 0) {
      const next: string[] = [];
      for (const key of frontier) {
        const values = valuesOf(key);
        for (const m of moves) {
          const k = keyOf(movePattern(spec, values, m));
          if (!distances.has(k)) {
            distances.set(k, depth + 1);
            next.push(k);
          }
        }
      }
      if (next.length > 0) depth++;
      frontier = next;
    }
    return new PatternDatabase(spec, distances, depth);
  }

  /** Number of patterns. */
  get size(): number {
    return this.distances.size;
  }

  /** The distance of a state's pattern. */
  distance(state: CubeState): number {
    const d = this.distances.get(keyOf(projectPattern(this.spec, state)));
    if (d === undefined)
      throw new RangeError(`pattern ${patternName(this.spec)} of the state is unreachable`);
    return d;
  }

  /** The distance of a pattern given by its values (as `entries` yields them). */
  distanceOfPattern(values: Uint8Array): number {
    const d = this.distances.get(keyOf(values));
    if (d === undefined)
      throw new RangeError(`pattern ${patternName(this.spec)} is unreachable from the origin`);
    return d;
  }

  /** Every pattern (position-indexed values, 255 for an untracked cubie) with its distance. */
  *entries(): IterableIterator<[Uint8Array, number]> {
    for (const [k, d] of this.distances) yield [valuesOf(k), d];
  }
}

/** The patterns the lower bound and the encoding's per-step bounds use, by cube size. */
export function defaultPatterns(size: CubeSize): readonly PatternSpec[] {
  return size === 2 ? DEFAULT_PATTERNS_2 : DEFAULT_PATTERNS_3;
}

const DEFAULT_PATTERNS_2: readonly PatternSpec[] = Object.freeze([{ kind: 'co' }, { kind: 'cp' }]);
const DEFAULT_PATTERNS_3: readonly PatternSpec[] = Object.freeze([
  { kind: 'co' },
  { kind: 'eo' },
  { kind: 'cp' },
]);

/** Radius of the goal perimeter the lower bound consults (the exact distance within it). */
export function lowerBoundRadius(size: CubeSize, metric: Metric): number {
  return size === 2 ? (metric === 'htm' ? 5 : 6) : metric === 'htm' ? 3 : 4;
}

/**
 * An admissible lower bound on the optimal solution length: the exact distance when the state
 * lies within the goal perimeter (see `GoalPerimeter`); otherwise the largest of one more than
 * the perimeter's radius, the small pattern-database distances and, for the 3x3, the strong
 * tables' distance (all corners, two six-edge groups: `StrongCubeBound`), raised to the right
 * parity in the quarter-turn metric (every quarter turn is an odd corner permutation, so the
 * length has the parity of the corner permutation). With the strong tables, a search of at most
 * `searchNodes` nodes then raises it (`searchLowerBound`; 0: none).
 *
 * `tables`: `disk` (default) uses the strong tables when `satfarm cube-tables build` has written
 * them (`loadStrongCubeBound`), `none` never does; or the tables themselves.
 */
export function cubeLowerBound(
  instance: CubeInstance,
  patterns: readonly PatternSpec[] = defaultPatterns(instance.size),
  tables: StrongCubeBound | 'disk' | 'none' = 'disk',
  searchNodes: number = boundSearchNodes(),
): number {
  return cubeBound(instance, patterns, tables, searchNodes).bound;
}

/**
 * Whether the cube's default bound (`cubeLowerBound`) is its optimum: inside the goal perimeter,
 * or where the bound's search found a solution that long.
 */
export function cubeBoundIsOptimum(instance: CubeInstance): boolean {
  return findCubeBound(instance).exact;
}

/**
 * The solution the bound's search found, when it found one (the cube's quick plan): as long as
 * the bound, so optimal. Undefined inside the goal perimeter or where the search ran out.
 */
export function cubeBoundSearchPlan(instance: CubeInstance): CubeSolution | undefined {
  const plan = findCubeBound(instance).plan;
  return plan === undefined ? undefined : { moves: mergeTurns(plan).map(moveName), metric: instance.metric };
}

/**
 * What the cube's default bound found: the bound, whether it is the optimum, and the search's plan
 * when it found one. Plain data, so that a thread can search and another use it (`adoptCubeBound`).
 */
export interface FoundCubeBound {
  bound: number;
  exact: boolean;
  plan?: readonly Move[];
}

/** Runs the cube's default bound (`cubeLowerBound`) and gives all it found. */
export function findCubeBound(instance: CubeInstance): FoundCubeBound {
  return cubeBound(instance, defaultPatterns(instance.size), 'disk', boundSearchNodes());
}

/**
 * Takes `found`, what `findCubeBound` gave for this instance in another thread of this process
 * (same tables, same node budget), as its default bound: `cubeLowerBound`, `cubeBoundIsOptimum`
 * and `cubeBoundSearchPlan` then answer from it without a search, and without reading the tables.
 */
export function adoptCubeBound(instance: CubeInstance, found: FoundCubeBound): void {
  remember(adopted, instanceKey(instance, boundSearchNodes()), found);
}

// The sweep asks for the bound, whether it is the optimum and its plan: one search answers all.
// `recent` keys on whether the tables were there (they may be built while a process runs);
// `adopted` holds what a thread searched a moment ago, so knowing it needs no tables loaded.
const recent = new Map<string, FoundCubeBound>();
const adopted = new Map<string, FoundCubeBound>();
const RECENT = 64;

function strongTablesOf(
  instance: CubeInstance,
  tables: StrongCubeBound | 'disk' | 'none',
): StrongCubeBound | undefined {
  if (instance.size !== 3 || tables === 'none') return undefined;
  return tables === 'disk' ? loadStrongCubeBound(instance.metric) : tables;
}

function instanceKey(instance: CubeInstance, searchNodes: number): string {
  return `${instance.size}${instance.metric}${instance.facelets} ${searchNodes}`;
}

function remember(memo: Map<string, FoundCubeBound>, key: string, found: FoundCubeBound): void {
  memo.delete(key);
  if (memo.size >= RECENT) memo.delete(memo.keys().next().value!);
  memo.set(key, found);
}

function cubeBound(
  instance: CubeInstance,
  patterns: readonly PatternSpec[],
  tables: StrongCubeBound | 'disk' | 'none',
  searchNodes: number,
): FoundCubeBound {
  const usual = tables === 'disk' && patterns === defaultPatterns(instance.size);
  const taken = usual ? adopted.get(instanceKey(instance, searchNodes)) : undefined;
  if (taken !== undefined) return taken;
  const strong = strongTablesOf(instance, tables);
  const key = instanceKey(instance, strong === undefined ? 0 : searchNodes);
  const seen = usual ? recent.get(key) : undefined;
  if (seen !== undefined) return seen;
  const found = computeBound(instance, patterns, strong, searchNodes);
  if (usual) remember(recent, key, found);
  return found;
}

function computeBound(
  instance: CubeInstance,
  patterns: readonly PatternSpec[],
  strong: StrongCubeBound | undefined,
  searchNodes: number,
): FoundCubeBound {
  const state = CubeState.fromFacelets(instance.size, instance.facelets);
  const perimeter = GoalPerimeter.of(
    instance.size,
    instance.metric,
    lowerBoundRadius(instance.size, instance.metric),
  );
  const exact = perimeter.distance(state);
  if (exact !== undefined) return { bound: exact, exact: true };
  let bound = perimeter.radius + 1;
  for (const spec of patterns) {
    bound = Math.max(bound, PatternDatabase.toSolved(instance.size, instance.metric, spec).distance(state));
  }
  if (strong !== undefined) {
    if (strong.metric !== instance.metric)
      throw new RangeError(`tables of the ${strong.metric} metric bound a ${instance.metric} instance`);
    bound = Math.max(bound, strong.distance(state));
  }
  if (instance.metric === 'qtm' && bound % 2 !== permutationParity(state.cp)) bound++;
  if (strong === undefined || searchNodes <= 0) return { bound, exact: false };
  const searched = searchLowerBound(state, instance.metric, searchPatternsOf(strong), {
    start: bound,
    nodeBudget: searchNodes,
  });
  return {
    bound: searched.bound,
    exact: searched.exact,
    ...(searched.plan === undefined ? {} : { plan: searched.plan }),
  };
}

/**
 * Edge readings the search consults beside the corners: five sets of six edges. More cut the
 * nodes but cost a lookup each (bench/cube/cube-bound-search.bench.ts).
 */
const SEARCH_EDGE_SETS = 5;
const searchPatterns = new WeakMap<StrongCubeBound, SearchPattern[]>();

function searchPatternsOf(strong: StrongCubeBound): SearchPattern[] {
  let patterns = searchPatterns.get(strong);
  if (patterns === undefined) {
    patterns = strongSearchPatterns(strong, SEARCH_EDGE_SETS);
    searchPatterns.set(strong, patterns);
  }
  return patterns;
}
