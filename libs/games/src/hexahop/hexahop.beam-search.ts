import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import {
  DIRECTIONS,
  hexDistance,
  MAP_SIZE,
  MOVE_NAMES,
  type MoveName,
  OFF_MAP,
  stepFrom,
} from './hexahop.geometry.js';
import { hexahopSolutionOf } from './hexahop.decode.js';
import { hexahopDefaultMaxHorizon } from './hexahop.lower-bound.js';
import { type HexahopInstance, HexahopSimulator, type HexahopSolution, Tile } from './hexahop.model.js';

/** How wide and how deep a beam search looks. */
export interface HexahopBeamOptions {
  /** States kept per move: the best by `beamScore`. */
  width: number;
  /** The longest plan it looks for. */
  maxDepth: number;
  /** How states are ranked (default `reach`). */
  ranking?: BeamRanking;
  /** Seed of the tie-break among states that score the same (the search is deterministic per seed). */
  seed?: number;
  /** A `performance.now()` time: the search gives up (no plan) at the first depth begun after it. */
  deadline?: number;
}

/** What a beam search found. */
export interface HexahopBeamOutcome {
  /** A winning plan, the first the beam reached; not always the shortest there is. */
  plan?: MoveName[];
  /** Moves looked at: the plan's length, or how deep the beam went before it emptied or stopped. */
  depth: number;
  /** States the beam kept, over all depths. */
  states: number;
}

/**
 * How a beam ranks the states of one depth (see `beamScore`). Each wins on some levels and loses on
 * others (bench/hexahop, hexahop-beam.json), so the bench tries them all.
 * - `reach`: the moves off targets left, the walk to the nearest target, stranded states last;
 * - `leaves`: the moves off targets left, stranded states last;
 * - `count`: the moves off targets left, and the straight-line distance to the nearest.
 */
export const BEAM_RANKINGS = ['reach', 'leaves', 'count'] as const;
export type BeamRanking = (typeof BEAM_RANKINGS)[number];

/** What a target out of reach adds to a state's score: more than any count of moves left. */
const STRANDED = 1000;

/**
 * How far a state looks from a win, for ranking states of the same depth (smaller is better): the
 * moves off greens and blues still to make, the walk to the nearest, and stranded states last
 * (docs/hexahop.md#searches-over-states). Not a bound: lasers destroy greens from afar, builders
 * add them, spinners move them.
 */
export function beamScore(sim: HexahopSimulator, ranking: BeamRanking = 'reach'): number {
  const tiles = sim.tiles;
  const leaves =
    sim.count(Tile.Green) + sim.count(Tile.GreenWall) + 2 * (sim.count(Tile.Blue) + sim.count(Tile.BlueWall));
  let near = Number.POSITIVE_INFINITY;
  let stranded = 0;
  const dist = ranking === 'count' ? undefined : reach(tiles, sim.player);
  const shot = dist === undefined ? undefined : shootable(tiles, dist);
  for (let c = 0; c < tiles.length; c++) {
    const t = tiles[c];
    if (t !== Tile.Green && t !== Tile.GreenWall && t !== Tile.Blue && t !== Tile.BlueWall) continue;
    const d = dist === undefined ? hexDistance(sim.player, c) : dist[c]!;
    if (d >= 0) near = Math.min(near, d);
    else if (shot?.[c] !== 1) stranded++;
  }
  const walk = ranking === 'leaves' || near === Number.POSITIVE_INFINITY ? 0 : near;
  return leaves + walk + STRANDED * stranded;
}

const CELLS = MAP_SIZE * MAP_SIZE;
const distances = new Int32Array(CELLS);
const queue = new Int32Array(CELLS);
const ringLand = new Uint8Array(CELLS);
const shotCells = new Uint8Array(CELLS);

/**
 * Steps from `from` to every cell over a relaxation of the moves (-1: out of reach): any land
 * next door (raised or not), two cells on from a trampoline, the first land in a line from a
 * boat, and the six cells around a spinner or builder counted as land (they turn tiles there).
 * It over-estimates what is reachable, so "out of reach" is all but sure (the one gap: a spinner
 * turning a trampoline or boat to a new place, whose throw from there is not followed). A ranking,
 * not a proof, so a gap costs only a worse rank. The array is reused.
 */
function reach(tiles: Uint8Array, from: number): Int32Array {
  ringLand.fill(0);
  for (let c = 0; c < CELLS; c++) {
    if (tiles[c] !== Tile.Spinner && tiles[c] !== Tile.Builder) continue;
    for (const d of DIRECTIONS) {
      const n = stepFrom(c, d);
      if (n !== OFF_MAP) ringLand[n] = 1;
    }
  }
  const land = (c: number): boolean => c !== OFF_MAP && (tiles[c] !== Tile.Water || ringLand[c] === 1);
  distances.fill(-1);
  distances[from] = 0;
  let head = 0;
  let tail = 0;
  queue[tail++] = from;
  const visit = (n: number, d: number): void => {
    if (!land(n) || distances[n]! >= 0) return;
    distances[n] = d;
    queue[tail++] = n;
  };
  while (head < tail) {
    const c = queue[head++]!;
    const next = distances[c]! + 1;
    for (const d of DIRECTIONS) {
      visit(stepFrom(c, d), next);
      if (tiles[c] === Tile.Trampoline) visit(stepFrom(c, d, 2), next);
      if (tiles[c] === Tile.Boat) {
        let n = stepFrom(c, d);
        while (n !== OFF_MAP && !land(n)) n = stepFrom(n, d);
        if (n !== OFF_MAP) visit(n, next);
      }
    }
  }
  return distances;
}

interface BeamNode {
  state: Uint8Array;
  parent: BeamNode | undefined;
  move: number;
  score: number;
  tie: number;
}

/**
 * A plan by beam search over the simulator's states: from each depth, only the `width` states that
 * `beamScore` ranks best go on (ties broken by a seeded shuffle; a state kept once is not kept
 * again). Where the breadth-first search (`searchShortestWin`) runs out of memory long before the
 * optimum, this still reaches a win on most levels: an upper bound on the fewest moves, with a plan
 * to replay. It proves nothing about shorter plans.
 */
export function beamSearchWin(
  instance: Pick<HexahopInstance, 'tiles' | 'items' | 'start'>,
  options: HexahopBeamOptions,
): HexahopBeamOutcome {
  const { width, maxDepth, ranking = 'reach' } = options;
  if (!Number.isInteger(width) || width < 1)
    throw new RangeError(`width must be a whole number >= 1, got ${width}`);
  if (!Number.isInteger(maxDepth) || maxDepth < 0)
    throw new RangeError(`maxDepth must be a whole number >= 0, got ${maxDepth}`);
  const rng = xoroshiro128plus(options.seed ?? 1);
  const random = (): number => unsafeUniformIntDistribution(0, 0x7fffffff, rng);
  const sim = new HexahopSimulator(instance);
  // States by a 53-bit hash: a collision only drops a state, and millions of states fit.
  const kept = new Set<number>();
  const root: BeamNode = { state: sim.packState(), parent: undefined, move: -1, score: 0, tie: 0 };
  kept.add(stateHash(root.state));
  let beam = [root];
  let states = 1;
  for (let depth = 0; depth < maxDepth; depth++) {
    if (options.deadline !== undefined && performance.now() >= options.deadline) return { depth, states };
    const candidates = new Map<number, BeamNode>();
    for (const node of beam) {
      for (let m = 0; m < MOVE_NAMES.length; m++) {
        sim.unpackState(node.state, depth);
        if (!sim.move(MOVE_NAMES[m]!).ok || sim.dead) continue;
        if (sim.won) return { plan: planOf(node, m), depth: depth + 1, states };
        const state = sim.packState();
        const key = stateHash(state);
        if (kept.has(key) || candidates.has(key)) continue;
        candidates.set(key, { state, parent: node, move: m, score: beamScore(sim, ranking), tie: random() });
      }
    }
    if (candidates.size === 0) return { depth, states };
    const next = [...candidates.entries()]
      .sort(([, a], [, b]) => a.score - b.score || a.tie - b.tie)
      .slice(0, width);
    for (const [key] of next) kept.add(key);
    // Expanded states are not needed again; their nodes live on only as links of plans.
    for (const node of beam) node.state = EMPTY;
    beam = next.map(([, node]) => node);
    states += beam.length;
  }
  return { depth: maxDepth, states };
}

const EMPTY = new Uint8Array(0);

/**
 * The cells a laser might still shoot (1): every cell in line with a laser the player can reach,
 * and, as beams refract on ice, in line with any ice once such a laser exists. Generous, so that a
 * target out of walking reach but in a beam's is not called stranded (lasers a spinner may carry
 * into reach are not followed). The array is reused.
 */
function shootable(tiles: Uint8Array, dist: Int32Array): Uint8Array {
  shotCells.fill(0);
  let armed = false;
  for (let c = 0; c < CELLS; c++) if (tiles[c] === Tile.Laser && dist[c]! >= 0) armed = true;
  if (!armed) return shotCells;
  for (let c = 0; c < CELLS; c++) {
    if (!((tiles[c] === Tile.Laser && dist[c]! >= 0) || tiles[c] === Tile.Ice)) continue;
    for (const d of DIRECTIONS)
      for (let n = stepFrom(c, d); n !== OFF_MAP; n = stepFrom(n, d)) shotCells[n] = 1;
  }
  return shotCells;
}

/** A 53-bit hash of a packed state (two 32-bit FNV-1a lanes). */
function stateHash(state: Uint8Array): number {
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ state.length;
  for (let i = 0; i < state.length; i++) {
    a = Math.imul(a ^ state[i]!, 0x01000193);
    b = Math.imul(b ^ state[i]!, 0x5bd1e995) ^ (b >>> 13);
  }
  return (a >>> 0) * 0x200000 + ((b >>> 0) & 0x1fffff);
}

/** The beam's width for a quick plan, cheap on every level (bench/README.md, "The quick plan"). */
export const QUICK_PLAN_WIDTH = 200;

/**
 * A plan for the sweep to start from (`GameDefinition.quickPlan`): one beam search ranked by
 * `reach`, QUICK_PLAN_WIDTH states wide, up to the level's default horizon cap.
 */
export function quickHexahopPlan(instance: HexahopInstance, deadline?: number): HexahopSolution | undefined {
  const { plan } = beamSearchWin(instance, {
    width: QUICK_PLAN_WIDTH,
    maxDepth: hexahopDefaultMaxHorizon(instance),
    ...(deadline === undefined ? {} : { deadline }),
  });
  return plan === undefined ? undefined : hexahopSolutionOf(instance, plan);
}

/** The moves from the root to `last`, then `move`. */
function planOf(last: BeamNode, move: number): MoveName[] {
  const moves = [MOVE_NAMES[move]!];
  for (let n = last; n.parent !== undefined; n = n.parent) moves.push(MOVE_NAMES[n.move]!);
  return moves.reverse();
}
