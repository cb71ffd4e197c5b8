import { cellIndex, DIRECTIONS, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { type HexahopInstance, type HexahopSimulator, Tile } from './hexahop.model.js';
import { type HexahopMap, type HexahopStatics, staticsOf } from './hexahop.statics.js';

/** Up to this many greens the tour bound is exact over the move graph (2^k k^2 steps); above, a spanning tree. */
const EXACT_TOUR_GREENS = 14;

/**
 * An admissible lower bound on the moves of a win, the largest of three: the greens to leave
 * (count), the farthest green, and the walk through the fixed greens (tour); why each holds is in
 * docs/hexahop.md#lower-bounds.
 */
export function hexahopLowerBound(instance: HexahopMap, st: HexahopStatics = staticsOf(instance)): number {
  // Where tiles may spread over the map the analysis stopped early, and spinners may even turn
  // greens off the map: no bound but the first move. (Over a window's statics, the bound holds
  // for the runs that stay inside it.)
  if (st.unbounded) return 1;
  const lasers = st.laserHit.size > 0;
  const fragile = (c: number): boolean => st.laserHit.has(c) || (lasers && st.spun.has(c));
  let greens = 0;
  for (let c = 0; c < instance.tiles.length; c++) {
    if (isGreen(instance.tiles[c]) && !fragile(c)) greens++;
  }
  const s = cellIndex(instance.start[0], instance.start[1]);
  const start = instance.tiles[s];
  const startCounted = isGreen(start) && !fragile(s);
  const startBlue = (start === Tile.Blue || start === Tile.BlueWall) && !fragile(s);
  const count = greens + (startCounted ? 0 : 1) + (startBlue ? 1 : 0);
  // Every green that no spinner moves must be left (stood on, then one more move) or shot (a
  // laser that reaches it landed on): the farthest such need, in over-approximate moves.
  let far = 0;
  for (let c = 0; c < instance.tiles.length; c++) {
    if (!isGreen(instance.tiles[c]) || st.spun.has(c)) continue;
    const shot = Math.min(...st.destroyers(c).map((L) => st.firstArrival(L)));
    far = Math.max(far, Math.min(st.firstArrival(c) + 1, shot));
  }
  return Math.max(1, count, Number.isFinite(far) ? far : 1, tourBound(instance, st, s));
}

function isGreen(tile: number | undefined): boolean {
  return tile === Tile.Green || tile === Tile.GreenWall;
}

/**
 * The shortest walk in the statics' move graph from the start through every fixed green (no
 * spinner moves it, no laser shoots it), plus the move off the last: a win stands on each
 * (docs/hexahop.md#lower-bounds). A spanning tree's weight above EXACT_TOUR_GREENS greens; 0 when
 * a fixed green is out of reach.
 */
function tourBound(instance: HexahopMap, st: HexahopStatics, start: number): number {
  const greens: number[] = [];
  for (let c = 0; c < instance.tiles.length; c++) {
    if (c !== start && isGreen(instance.tiles[c]) && !st.laserHit.has(c) && !st.spun.has(c)) greens.push(c);
  }
  if (greens.length === 0) return 0;
  const nodes = [start, ...greens];
  const dist = nodes.map((a) => {
    const from = st.distancesFrom(a);
    return nodes.map((b) => from.get(b) ?? Infinity);
  });
  if (greens.some((_, j) => dist[0]![j + 1] === Infinity)) return 0;
  const walk = greens.length <= EXACT_TOUR_GREENS ? shortestOpenWalk(dist) : spanningTreeWeight(dist);
  return Number.isFinite(walk) ? walk + 1 : 0;
}

/** The shortest walk from node 0 through every other node (any end), by Held-Karp over subsets. */
function shortestOpenWalk(dist: number[][]): number {
  const k = dist.length - 1;
  const full = 1 << k;
  const best = new Float64Array(full * k).fill(Infinity);
  for (let j = 0; j < k; j++) best[(1 << j) * k + j] = dist[0]![j + 1]!;
  for (let set = 1; set < full; set++) {
    for (let j = 0; j < k; j++) {
      const here = best[set * k + j]!;
      if (here === Infinity || ((set >> j) & 1) === 0) continue;
      for (let q = 0; q < k; q++) {
        if ((set >> q) & 1) continue;
        const via = here + dist[j + 1]![q + 1]!;
        const slot = (set | (1 << q)) * k + q;
        if (via < best[slot]!) best[slot] = via;
      }
    }
  }
  let out = Infinity;
  for (let j = 0; j < k; j++) out = Math.min(out, best[(full - 1) * k + j]!);
  return out;
}

/** Prim's minimum spanning tree over the nodes, each edge weighed by its shorter direction. */
function spanningTreeWeight(dist: number[][]): number {
  const n = dist.length;
  const inTree = new Array<boolean>(n).fill(false);
  const key = new Array<number>(n).fill(Infinity);
  key[0] = 0;
  let total = 0;
  for (let round = 0; round < n; round++) {
    let u = -1;
    for (let v = 0; v < n; v++) if (!inTree[v] && (u < 0 || key[v]! < key[u]!)) u = v;
    if (key[u]! === Infinity) return Infinity;
    inTree[u] = true;
    total += key[u]!;
    for (let v = 0; v < n; v++) {
      const w = Math.min(dist[u]![v]!, dist[v]![u]!);
      if (!inTree[v] && w < key[v]!) key[v] = w;
    }
  }
  return total;
}

/** The horizon cap when the user gives none: the level's par score (a score bounds the moves), else 4 LB + 20. */
export function hexahopDefaultMaxHorizon(instance: HexahopInstance): number {
  const lower = hexahopLowerBound(instance);
  return Math.max(lower, instance.par !== undefined && instance.par > 0 ? instance.par : 4 * lower + 20);
}

/**
 * The most greens (tiles or walls) one laser shot may destroy on the level: where a shot sends one
 * beam, it hits one tile, a green or a laser whose explosion takes its six neighbours. Undefined
 * where a shot may send more (ice refracts beams; `jumps`: a jump fires all six ways); 0 without
 * lasers.
 */
export function greensPerShot(st: HexahopStatics, jumps: boolean): number | undefined {
  if (st.laserHit.size === 0) return 0;
  if (jumps || st.cellsThatMayHold(Tile.Ice).length > 0) return undefined;
  const greenish = (c: number): boolean =>
    c !== OFF_MAP && (st.may(c, Tile.Green) || st.may(c, Tile.GreenWall));
  let most = 0;
  for (const x of st.laserHit) {
    if (greenish(x)) most = Math.max(most, 1);
    if (st.may(x, Tile.Laser))
      most = Math.max(most, DIRECTIONS.filter((d) => greenish(stepFrom(x, d))).length);
  }
  return most;
}

/**
 * An admissible bound on the moves a state still needs to win, for searches over states (the
 * level's statics `st` hold for every state it reaches): m >= (D + c - 1) / p for D greens
 * standing, p greens a shot may destroy, c = 1 off a green (docs/hexahop.md#lower-bounds). 1 where
 * a shot's toll is unknown or a spinner may turn a green off the map.
 */
export function movesLeftBound(st: HexahopStatics): (sim: HexahopSimulator) => number {
  const edgeSpinner = st
    .cellsThatMayHold(Tile.Spinner)
    .some((c) => DIRECTIONS.some((d) => stepFrom(c, d) === OFF_MAP));
  const p = st.unbounded || edgeSpinner ? undefined : greensPerShot(st, st.jumpItems.length > 0);
  if (p === undefined) return () => 1;
  return (sim) => {
    const greens = sim.count(Tile.Green) + sim.count(Tile.GreenWall);
    const c = isGreen(sim.tiles[sim.player]) ? 0 : 1;
    const moves = p === 0 ? greens + c : Math.ceil((greens + c - 1) / p);
    return Math.max(1, moves);
  };
}
