import { type SnakeInstance, type SnakeSimulator, startStates } from './snake.model.js';
import { SnakeDistances, SnakeReach } from './snake.reach.js';

/** Apple counts up to this get the exact shortest-tour bound (Held–Karp); larger ones an MST bound. */
export const HELD_KARP_MAX_APPLES = 20;

/** Above {@link HELD_KARP_MAX_APPLES} apples, the bound's exact tour runs through this many of them. */
export const SPREAD_SUBSET_APPLES = 14;

/** Simulator states the exhaustive search may visit before it gives up. */
export const SEARCH_STATE_BUDGET = 5_000;

/** What is known about an instance before any solver runs. */
export interface SnakeAnalysis {
  /** An admissible lower bound on the plan length. */
  lowerBound: number;
  /** True when no plan exists at all (proven by the exhaustive search or an unreachable apple). */
  unsolvable: boolean;
}

const analyses = new WeakMap<SnakeInstance, SnakeAnalysis>();

/**
 * The admissible lower bound (the shortest path through the apples over Manhattan distances, which
 * every plan walks at least) and the unsolvability check (a small search over simulator states)
 * of an instance, cached per instance; docs/games.md#snake says why each holds.
 */
export function analyseSnake(instance: SnakeInstance): SnakeAnalysis {
  let analysis = analyses.get(instance);
  if (analysis === undefined) {
    analysis = computeAnalysis(instance);
    analyses.set(instance, analysis);
  }
  return analysis;
}

/** The lower bound of {@link analyseSnake}. */
export function snakeLowerBound(instance: SnakeInstance): number {
  return analyseSnake(instance).lowerBound;
}

/**
 * The default horizon cap: the lower bound plus one cell count of the grid, or one less than
 * the lower bound when the instance is proven unsolvable (so a sweep ends at once, unsatisfiable).
 * For `survive` the cap is the walk's length: its one horizon.
 */
export function snakeDefaultMaxHorizon(instance: SnakeInstance): number {
  if (instance.survive !== undefined) return instance.survive;
  const { lowerBound, unsolvable } = analyseSnake(instance);
  return unsolvable ? lowerBound - 1 : lowerBound + instance.width * instance.height;
}

function computeAnalysis(instance: SnakeInstance): SnakeAnalysis {
  if (instance.survive !== undefined) return { lowerBound: instance.survive, unsolvable: false };
  const spawn = instance.spawn ?? [];
  if (instance.apples.length === 0 && spawn.length === 0) return { lowerBound: 0, unsolvable: false };
  // A spawn chain with no apple to eat never starts.
  if (instance.apples.length === 0) return { lowerBound: 1, unsolvable: true };
  const reach = new SnakeReach(instance);
  const grid = reach.grid;
  const distances = new SnakeDistances(grid, instance);
  // Every cell that ever holds an apple is entered at some step (spawned ones once they appear).
  const cells = [...new Set([...instance.apples, ...spawn].map((c) => grid.index(c)))];
  const first = cells.map((c) => reach.firstArrival(c));
  if (first.some((t) => !Number.isFinite(t))) return { lowerBound: 1, unsolvable: true };
  const between = (a: number, b: number): number => distances.between(cells[a]!, cells[b]!);
  // With `start: any` the walls may cut the grid: apples apart can never all be eaten.
  if (cells.some((_, a) => !Number.isFinite(between(0, a)))) return { lowerBound: 1, unsolvable: true };
  const tour =
    instance.order === 'given'
      ? cells.reduce((sum, _, k) => sum + (k === 0 ? first[0]! : between(k - 1, k)), 0)
      : cells.length <= HELD_KARP_MAX_APPLES
        ? shortestTour(first, between)
        : Math.max(spanningTreeWeight(first, between), spreadSubsetTour(first, between));
  // Each apple eaten takes a step of its own; the chain's last cell appears at the S-th eating.
  const lowerBound = spawn.length > 0 ? Math.max(tour, spawn.length + 1) : tour;
  return { lowerBound, unsolvable: provenUnsolvable(instance) };
}

/**
 * Length of the shortest path from the start through every point (`fromStart[a]` to reach a), by
 * Held–Karp over subsets: (2^n) n table entries of 16 bits (32 when the lengths could overflow).
 */
function shortestTour(fromStart: readonly number[], between: (a: number, b: number) => number): number {
  const n = fromStart.length;
  const full = (1 << n) - 1;
  const distance = Int32Array.from({ length: n * n }, (_, i) => between(Math.floor(i / n), i % n));
  const longest = Math.max(...fromStart) + n * Math.max(...distance);
  const unset = longest < 0xffff ? 0xffff : 0x7fffffff;
  const best = unset === 0xffff ? new Uint16Array((1 << n) * n) : new Int32Array((1 << n) * n);
  best.fill(unset);
  for (let a = 0; a < n; a++) best[(1 << a) * n + a] = fromStart[a]!;
  for (let set = 1; set <= full; set++) {
    for (let last = 0; last < n; last++) {
      const here = best[set * n + last]!;
      if (here === unset) continue;
      for (let next = 0; next < n; next++) {
        if (set & (1 << next)) continue;
        const to = (set | (1 << next)) * n + next;
        const cost = here + distance[last * n + next]!;
        if (cost < best[to]!) best[to] = cost;
      }
    }
  }
  let answer = Infinity;
  for (let last = 0; last < n; last++) answer = Math.min(answer, best[full * n + last]!);
  return answer;
}

/**
 * The shortest tour through {@link SPREAD_SUBSET_APPLES} apples picked far apart (farthest-point
 * order): a plan visits them too, and by the triangle inequality no faster than their own tour.
 */
function spreadSubsetTour(fromStart: readonly number[], between: (a: number, b: number) => number): number {
  const picked = [fromStart.indexOf(Math.max(...fromStart))];
  while (picked.length < SPREAD_SUBSET_APPLES) {
    let best = -1;
    let bestGap = -1;
    for (let a = 0; a < fromStart.length; a++) {
      if (picked.includes(a)) continue;
      const gap = Math.min(...picked.map((p) => between(a, p)));
      if (gap > bestGap) [best, bestGap] = [a, gap];
    }
    picked.push(best);
  }
  return shortestTour(
    picked.map((a) => fromStart[a]!),
    (i, j) => between(picked[i]!, picked[j]!),
  );
}

/** Weight of a minimum spanning tree over the start and the points (Prim). */
function spanningTreeWeight(fromStart: readonly number[], between: (a: number, b: number) => number): number {
  const n = fromStart.length;
  const distance = [...fromStart];
  const inTree = new Array<boolean>(n).fill(false);
  let total = 0;
  for (let round = 0; round < n; round++) {
    let pick = -1;
    for (let a = 0; a < n; a++) if (!inTree[a] && (pick < 0 || distance[a]! < distance[pick]!)) pick = a;
    inTree[pick] = true;
    total += distance[pick]!;
    for (let a = 0; a < n; a++) if (!inTree[a]) distance[a] = Math.min(distance[a]!, between(pick, a));
  }
  return total;
}

/** True when a search of every reachable simulator state, within the budget, finds no plan. */
function provenUnsolvable(instance: SnakeInstance): boolean {
  const starts = startStates(instance);
  if (starts.some((s) => s.isDone())) return false;
  const seen = new Set<string>(starts.map((s) => s.key()));
  if (seen.size > SEARCH_STATE_BUDGET) return false;
  let frontier: SnakeSimulator[] = starts;
  while (frontier.length > 0) {
    const next: SnakeSimulator[] = [];
    for (const state of frontier) {
      for (const move of state.legalMoves()) {
        const child = state.clone();
        child.move(move);
        if (child.isDone()) return false;
        const key = child.key();
        if (seen.has(key)) continue;
        if (seen.size >= SEARCH_STATE_BUDGET) return false;
        seen.add(key);
        next.push(child);
      }
    }
    frontier = next;
  }
  return true;
}
