/*
 * Hex-a-Hop at horizon T: "the level is won by step T", with an absorbing done state (after the
 * win no move is made and the board is frozen), so SAT(T) is monotone in T.
 * n_t = cells the player may stand on by step t (HexahopReach), N = sum of n_t, g = green-family
 * cells (green, green wall, blue, blue wall; k_c <= 5 kinds each), l = lifts, b_t = branches of
 * the landing decision trees of the moves out of the cells of step t (trampolines and ice
 * resolved along the line of travel; b_t <= 3^chain but about 6 n_t in practice).
 * Variables:
 *   pos(x,y,t): N;  act(d,t): 6T;  done(t): T (fixed false below the lower bound);
 *   kind(K,x,y,t) for a green-family cell's kinds K (fixed at t = 0, pruned before the cell can
 *   first be left): at most sum k_c * T;  raised(x,y,t) for blue walls (GW or BW): at most g T;
 *   up(x,y,t) for lifts: l T;  anyG(t), anyB(t) ("a green / blue tile remains once the player has
 *   left its cell", only with green / blue walls): 2T, with one support auxiliary per
 *   green-family cell and step: g T;  check(t) (the move leaves green or blue, only for blue
 *   walls without a blue tile at the start): T, with 2 g T supports;  budget: waste(t) and
 *   blueLeft(t): 2T, plus the sequential counter's 2T * (T - greens) auxiliaries.
 * Clauses:
 *   actions: at least one unless done, none after done, at most one: 1 + 6 + 15 per step;
 *   positions: at least one, at most one (commander, ~3.5 n_t), frozen after done (n_t), and
 *   (predecessors) the cell at t is one move from the cell at t - 1: n_t clauses of <= 7 literals;
 *   moves: for each (cell, direction): refused entries forbidden (2 clauses), one clause per
 *   landing branch (land, or forbidden death): about 6 N + sum b_t clauses of <= 8 literals;
 *   tiles: per green-family cell and step, one clause per (kind, left or not, replaced or not)
 *   case plus freezing and at most one kind: about 3 k_c + k_c^2/2;  lifts: 6 per lift and step;
 *   anyG/anyB/check: two implications per cell each way: about 4 g T each;
 *   done(t) <-> no green tile and no green wall at t: g + 1 per step, and done(t-1) -> done(t);
 *   goal: done(T).
 * Redundant (each a choice, for benchmarks): deadlines, a green still there at t is within
 * T - 1 - t moves of the player: at most N g binary clauses; budget, the moves leaving no green
 * (and twice those leaving blue) are at most T - greens: n_t + 2 g clauses per step plus the
 * counter's ~4T (T - greens); visits, each green at the start is stood on before T: g clauses of T.
 * Exactness rests on two invariants of the supported tiles: while the level is not won, a green
 * tile exists (so "no green tile or green wall" is the win: parse demands a green tile), and a
 * blue wall exists only while a blue tile does, or before the first board check (so the blue
 * replacement happens exactly when the last blue tile is left, at a board check).
 */
import { atMostOne, CnfFormula, type EncodingSink, sequentialAtMostK } from '@satfarm/cnf';

import type { EncodeOptions, Encoded } from '../game-definition.js';
import { type GreenKind, HexahopBoard, KIND_OF_TILE, type LandingOracle } from './hexahop.board.js';
import { decodeHexahop } from './hexahop.decode.js';
import { unsupportedFeatures } from './hexahop.features.js';
import { cellX, cellY, DIRECTIONS, stepFrom } from './hexahop.geometry.js';
import { hexahopLowerBound } from './hexahop.lower-bound.js';
import { type HexahopInstance, type HexahopSolution, Tile } from './hexahop.model.js';
import { HexahopReach } from './hexahop.reach.js';

/** Encoding choices, for benchmarks: every choice gives the same answers. */
export interface HexahopEncodingChoices {
  /** Redundant clauses: a green-family cell still green at t needs the player within reach by T. */
  deadlines: boolean;
  /** Redundant clauses: the player's cell at t is one move from the cell at t - 1 (or the same, after the win). */
  predecessors: boolean;
  /**
   * Redundant move budget: moves that leave no green tile or wall, plus moves that leave a blue
   * tile or wall (each makes one more green to leave), number at most T minus the greens at the start.
   */
  budget: boolean;
  /** Redundant clauses: every green tile or wall at the start is stood on at some step before T. */
  visits: boolean;
  /**
   * Redundant phase (levels with green walls and no blue walls): lowered(t), "the green walls have
   * come down by step t", is monotone; once true every green at the start is water and no green
   * wall is left; a green wall's cell is green only once it is true.
   */
  phases: boolean;
}

export const DEFAULT_HEXAHOP_ENCODING: HexahopEncodingChoices = {
  deadlines: true,
  predecessors: true,
  budget: true,
  visits: false,
  phases: true,
};

/** Reads `options.variant` (keys `deadlines`, `predecessors`, `budget`, `visits`, `phases`) over the defaults. */
export function hexahopEncodingChoices(options?: EncodeOptions): HexahopEncodingChoices {
  const v = options?.variant ?? {};
  const flag = (key: keyof HexahopEncodingChoices): boolean =>
    v[key] === undefined ? DEFAULT_HEXAHOP_ENCODING[key] : v[key] !== false;
  return {
    deadlines: flag('deadlines'),
    predecessors: flag('predecessors'),
    budget: flag('budget'),
    visits: flag('visits'),
    phases: flag('phases'),
  };
}

const TRUE = Number.POSITIVE_INFINITY;
const FALSE = 0;

function not(lit: number): number {
  return lit === TRUE ? FALSE : lit === FALSE ? TRUE : -lit;
}

function addFolded(sink: EncodingSink, lits: readonly number[]): void {
  if (lits.includes(TRUE)) return;
  sink.add(lits.filter((l) => l !== FALSE));
}

/** At most one of `lits`, which may hold the constants. */
function atMostOneFolded(sink: EncodingSink, lits: readonly number[], encoding: 'pairwise' | 'auto'): void {
  const live = lits.filter((l) => l !== FALSE && l !== TRUE);
  const constantTrue = lits.length - live.length - lits.filter((l) => l === FALSE).length;
  if (constantTrue > 1) sink.add([]);
  else if (constantTrue === 1) for (const l of live) sink.add([-l]);
  else atMostOne(sink, live, encoding);
}

/** Encodes `instance` at horizon `horizon` (see the comment at the top of this file). */
export function encodeHexahop(
  instance: HexahopInstance,
  horizon: number,
  options?: EncodeOptions,
): Encoded<HexahopSolution> {
  const unsupported = unsupportedFeatures(instance);
  if (unsupported.length > 0) throw new RangeError(`unsupported tile types: ${unsupported.join(', ')}`);
  return new HexahopEncoder(instance, horizon, hexahopEncodingChoices(options)).encode();
}

class HexahopEncoder {
  private readonly f = new CnfFormula();
  private readonly board: HexahopBoard;
  private readonly reach: HexahopReach;
  private readonly layers: number[][] = [];
  private readonly layerSets: Set<number>[] = [];
  private readonly greenCells: number[];
  private readonly liftCells: number[];
  private readonly lower: number;
  private readonly withGreenWalls: boolean;
  private readonly withBlueWalls: boolean;
  /** Blue walls with no blue tile at the start: they stay until the first board check. */
  private readonly blueWallsWaitForCheck: boolean;
  private readonly orCache = new Map<string, number>();

  constructor(
    private readonly instance: HexahopInstance,
    private readonly T: number,
    private readonly choices: HexahopEncodingChoices,
  ) {
    this.board = new HexahopBoard(instance);
    this.reach = new HexahopReach(this.board);
    for (let t = 0; t <= T; t++) {
      const layer = this.reach.cellsBy(t);
      this.layers.push(layer);
      this.layerSets.push(new Set(layer));
    }
    this.greenCells = this.board.cells.filter((c) => this.board.classOf(c) === 'green');
    this.liftCells = this.board.cells.filter((c) => this.board.classOf(c) === 'lift');
    this.withGreenWalls = this.greenCells.some((c) => this.board.kinds(c).includes('GW'));
    this.withBlueWalls = this.greenCells.some((c) => this.board.kinds(c).includes('BW'));
    this.blueWallsWaitForCheck =
      this.withBlueWalls && !this.greenCells.some((c) => this.board.tile(c) === Tile.Blue);
    this.lower = hexahopLowerBound(instance);
  }

  encode(): Encoded<HexahopSolution> {
    const f = this.f;
    f.comment(`hexahop ${this.instance.name} T=${this.T}`);
    for (let t = 1; t <= this.T; t++) {
      this.encodeActions(t);
      this.encodePositions(t);
      this.encodeMoves(t);
      this.encodeGreenTiles(t);
      this.encodeLifts(t);
      this.encodeDone(t);
    }
    if (this.choices.deadlines) this.encodeDeadlines();
    if (this.choices.budget) this.encodeBudget();
    if (this.choices.visits) this.encodeVisits();
    if (this.choices.phases && this.withGreenWalls && !this.withBlueWalls) this.encodePhases();
    addFolded(f, [this.done(this.T)]);
    return {
      formula: f,
      decode: (model) => decodeHexahop(model, f.pool, this.instance, this.T),
    };
  }

  private named(name: string, cell: number, t: number): number {
    return this.f.pool.named(name, cellX(cell), cellY(cell), t);
  }

  private pos(cell: number, t: number): number {
    if (t < 0 || t > this.T || !this.layerSets[t]!.has(cell)) return FALSE;
    if (t === 0) return cell === this.board.start ? TRUE : FALSE;
    return this.named('pos', cell, t);
  }

  private act(d: number, t: number): number {
    return this.f.pool.named('act', d, t);
  }

  private done(t: number): number {
    if (t < this.lower) return FALSE;
    return this.f.pool.named('done', t);
  }

  /** Whether green-family cell `cell` is of kind `k` at step t. */
  private kind(cell: number, k: GreenKind, t: number): number {
    if (!this.board.kinds(cell).includes(k)) return FALSE;
    const initial = KIND_OF_TILE[this.board.tile(cell)]!;
    if (t === 0) return k === initial ? TRUE : FALSE;
    const replacement = (initial === 'GW' && k === 'G') || (initial === 'BW' && k === 'B');
    if (k !== initial && !replacement && this.reach.firstArrival(cell) > t - 1) return FALSE;
    return this.f.pool.named(`k${k}`, cellX(cell), cellY(cell), t);
  }

  private up(cell: number, t: number): number {
    if (t === 0) return this.board.tile(cell) === Tile.LiftUp ? TRUE : FALSE;
    return this.named('up', cell, t);
  }

  /** A literal equal to the disjunction of `lits` (an auxiliary when needed, cached by `key`). */
  private orOf(key: string, lits: readonly number[]): number {
    if (lits.includes(TRUE)) return TRUE;
    const live = lits.filter((l) => l !== FALSE);
    if (live.length === 0) return FALSE;
    if (live.length === 1) return live[0]!;
    let v = this.orCache.get(key);
    if (v !== undefined) return v;
    v = this.f.pool.fresh();
    this.orCache.set(key, v);
    for (const l of live) this.f.add([-l, v]);
    this.f.add([-v, ...live]);
    return v;
  }

  private water(cell: number, t: number): number {
    switch (this.board.classOf(cell)) {
      case 'water':
        return TRUE;
      case 'green':
        return this.kind(cell, 'W', t);
      default:
        return FALSE;
    }
  }

  /** Whether `cell` is raised in the state at step t. */
  private raised(cell: number, t: number): number {
    switch (this.board.classOf(cell)) {
      case 'water':
        return FALSE;
      case 'fixed':
        return this.board.fixedRaised(cell) ? TRUE : FALSE;
      case 'lift':
        return this.up(cell, t);
      case 'green':
        return this.orOf(`raised ${cell} ${t}`, [this.kind(cell, 'GW', t), this.kind(cell, 'BW', t)]);
    }
  }

  /**
   * The landing questions during the move of step t: green-family cells are seen after the
   * left tile and the board check changed them (state t), lifts before the landing toggles them
   * (state t - 1).
   */
  private oracleAt(t: number): LandingOracle<number> {
    return {
      raised: (c) => (this.board.classOf(c) === 'lift' ? this.up(c, t - 1) : this.raised(c, t)),
      water: (c) => this.water(c, t),
      not,
    };
  }

  private encodeActions(t: number): void {
    const f = this.f;
    const acts = DIRECTIONS.map((d) => this.act(d, t));
    const doneBefore = this.done(t - 1);
    addFolded(f, [doneBefore, ...acts]);
    for (const a of acts) addFolded(f, [not(doneBefore), -a]);
    atMostOneFolded(f, acts, 'pairwise');
  }

  private encodePositions(t: number): void {
    const f = this.f;
    const here = this.layers[t]!.map((c) => this.pos(c, t));
    addFolded(f, here);
    atMostOneFolded(f, here, 'auto');
    const doneBefore = this.done(t - 1);
    if (doneBefore !== FALSE) {
      for (const c of this.layers[t - 1]!)
        addFolded(f, [not(doneBefore), not(this.pos(c, t - 1)), this.pos(c, t)]);
    }
    if (!this.choices.predecessors) return;
    for (const c of this.layers[t]!) {
      const from = this.reach.previous(c).map((p) => this.pos(p, t - 1));
      const stay = doneBefore === FALSE ? FALSE : this.pos(c, t - 1);
      addFolded(f, [not(this.pos(c, t)), stay, ...from]);
    }
  }

  private encodeMoves(t: number): void {
    const f = this.f;
    const oracle = this.oracleAt(t);
    for (const p of this.layers[t - 1]!) {
      const at = this.pos(p, t - 1);
      const high = this.raised(p, t - 1);
      for (const d of DIRECTIONS) {
        const base = [not(at), -this.act(d, t)];
        const q = stepFrom(p, d);
        if (this.board.classOf(q) === 'water') {
          addFolded(f, base);
          continue;
        }
        addFolded(f, [...base, not(this.water(q, t - 1))]);
        addFolded(f, [...base, high, not(this.raised(q, t - 1))]);
        for (const h of [true, false]) {
          const hl = h ? high : not(high);
          if (hl === FALSE) continue;
          for (const branch of this.board.landing(q, d, h, oracle)) {
            const end = branch.land === 'death' ? [] : [this.pos(branch.land, t)];
            addFolded(f, [...base, not(hl), ...branch.conds.map(not), ...end]);
          }
        }
      }
    }
  }

  private encodeGreenTiles(t: number): void {
    const f = this.f;
    const doneBefore = this.done(t - 1);
    const anyG = this.withGreenWalls ? this.f.pool.named('anyG', t) : FALSE;
    const anyB = this.withBlueWalls ? this.f.pool.named('anyB', t) : FALSE;
    const check = this.blueWallsWaitForCheck ? this.boardCheck(t) : TRUE;
    const gSupport: number[] = [];
    const bSupport: number[] = [];
    for (const c of this.greenCells) {
      const left = this.pos(c, t - 1);
      const next = (k: GreenKind): number => this.kind(c, k, t);
      for (const k of this.board.kinds(c)) {
        const prev = this.kind(c, k, t - 1);
        if (prev === FALSE) continue;
        addFolded(f, [not(prev), not(doneBefore), next(k)]);
        switch (k) {
          case 'W':
            addFolded(f, [not(prev), next('W')]);
            break;
          case 'G':
            addFolded(f, [not(prev), not(left), doneBefore, next('W')]);
            addFolded(f, [not(prev), left, next('G')]);
            break;
          case 'GW':
            addFolded(f, [not(prev), not(left), doneBefore, next('W')]);
            addFolded(f, [not(prev), left, doneBefore, anyG, next('G')]);
            addFolded(f, [not(prev), left, not(anyG), next('GW')]);
            break;
          case 'B':
            addFolded(f, [not(prev), not(left), doneBefore, next('G')]);
            addFolded(f, [not(prev), left, next('B')]);
            break;
          case 'BW':
            addFolded(f, [not(prev), not(left), doneBefore, next('GW')]);
            addFolded(f, [not(prev), left, doneBefore, anyB, not(check), next('B')]);
            addFolded(f, [not(prev), left, not(anyB), next('BW')]);
            addFolded(f, [not(prev), left, check, next('BW')]);
            break;
        }
      }
      const nowKinds = this.board.kinds(c).map((k) => next(k));
      addFolded(f, nowKinds);
      atMostOneFolded(f, nowKinds, 'pairwise');
      if (this.withGreenWalls) {
        const g = this.kind(c, 'G', t - 1);
        const b = this.kind(c, 'B', t - 1);
        addFolded(f, [not(g), left, anyG]);
        addFolded(f, [not(b), not(left), anyG]);
        gSupport.push(this.support(g, not(left)), this.support(b, left));
      }
      if (this.withBlueWalls) {
        const b = this.kind(c, 'B', t - 1);
        addFolded(f, [not(b), left, anyB]);
        bSupport.push(this.support(b, not(left)));
      }
    }
    if (this.withGreenWalls) addFolded(f, [-anyG, ...gSupport]);
    if (this.withBlueWalls) addFolded(f, [-anyB, ...bSupport]);
  }

  /** "The move of step t leaves a green or blue tile" (the game then checks the board). */
  private boardCheck(t: number): number {
    const f = this.f;
    const check = f.pool.named('check', t);
    const support: number[] = [];
    for (const c of this.greenCells) {
      const left = this.pos(c, t - 1);
      for (const k of ['G', 'B'] as const) {
        const was = this.kind(c, k, t - 1);
        addFolded(f, [not(left), not(was), check]);
        support.push(this.support(left, was));
      }
    }
    addFolded(f, [-check, ...support]);
    return check;
  }

  /** A literal implying both `a` and `b` (for the "some tile remains" explanations). */
  private support(a: number, b: number): number {
    if (a === FALSE || b === FALSE) return FALSE;
    if (a === TRUE) return b;
    if (b === TRUE) return a;
    const v = this.f.pool.fresh();
    this.f.add([-v, a]);
    this.f.add([-v, b]);
    return v;
  }

  private encodeLifts(t: number): void {
    const f = this.f;
    const doneBefore = this.done(t - 1);
    for (const c of this.liftCells) {
      const was = this.up(c, t - 1);
      const now = this.up(c, t);
      const landed = this.pos(c, t);
      addFolded(f, [landed, not(was), now]);
      addFolded(f, [not(doneBefore), not(was), now]);
      addFolded(f, [landed, was, not(now)]);
      addFolded(f, [not(doneBefore), was, not(now)]);
      addFolded(f, [not(landed), doneBefore, not(was), not(now)]);
      addFolded(f, [not(landed), doneBefore, was, now]);
    }
  }

  private encodeDone(t: number): void {
    const f = this.f;
    const done = this.done(t);
    const remaining: number[] = [];
    for (const c of this.greenCells) {
      for (const k of ['G', 'GW'] as const) {
        const lit = this.kind(c, k, t);
        addFolded(f, [not(done), not(lit)]);
        remaining.push(lit);
      }
    }
    addFolded(f, [done, ...remaining]);
    addFolded(f, [not(this.done(t - 1)), done]);
  }

  /**
   * Without blue walls, green walls come down at most once, all together, when the last green
   * tile is left; lowered(t) says it has happened by step t.
   */
  private encodePhases(): void {
    const f = this.f;
    let before = FALSE;
    for (let t = 1; t <= this.T; t++) {
      const lowered = f.pool.named('lowered', t);
      const anyG = f.pool.named('anyG', t);
      const doneBefore = this.done(t - 1);
      addFolded(f, [not(before), lowered]);
      addFolded(f, [doneBefore, anyG, lowered]);
      addFolded(f, [-lowered, before, not(doneBefore)]);
      addFolded(f, [-lowered, before, -anyG]);
      for (const c of this.greenCells) {
        const initial = KIND_OF_TILE[this.board.tile(c)];
        if (initial === 'G') addFolded(f, [-lowered, not(this.kind(c, 'G', t))]);
        if (initial === 'GW') {
          addFolded(f, [-lowered, not(this.kind(c, 'GW', t))]);
          addFolded(f, [not(this.kind(c, 'G', t)), lowered]);
        }
      }
      before = lowered;
    }
  }

  /** A green tile or wall at the start must be left, so the player stands on it before T. */
  private encodeVisits(): void {
    for (const c of this.greenCells) {
      if (this.kind(c, 'G', 0) !== TRUE && this.kind(c, 'GW', 0) !== TRUE) continue;
      const times = Array.from({ length: this.T }, (_, t) => this.pos(c, t));
      addFolded(this.f, times);
    }
  }

  /**
   * Every move leaves one cell; each green tile or wall at the start, and each one made by
   * leaving a blue tile or wall, must be left once while green. So the moves of steps 1..T that
   * leave anything else, counted twice when they leave blue, are at most T - greens.
   */
  private encodeBudget(): void {
    const f = this.f;
    let greens = 0;
    for (const c of this.greenCells) {
      if (this.kind(c, 'G', 0) === TRUE || this.kind(c, 'GW', 0) === TRUE) greens++;
    }
    const spent: number[] = [];
    for (let t = 1; t <= this.T; t++) {
      const doneBefore = this.done(t - 1);
      const waste = f.pool.named('waste', t);
      const blue = f.pool.named('blueLeft', t);
      spent.push(waste, blue);
      for (const c of this.layers[t - 1]!) {
        const at = this.pos(c, t - 1);
        if (this.board.classOf(c) !== 'green') {
          addFolded(f, [not(at), doneBefore, waste]);
          continue;
        }
        addFolded(f, [not(at), doneBefore, this.kind(c, 'G', t - 1), this.kind(c, 'GW', t - 1), waste]);
        for (const k of ['B', 'BW'] as const)
          addFolded(f, [not(at), doneBefore, not(this.kind(c, k, t - 1)), blue]);
      }
    }
    const budget = this.T - greens;
    if (budget < 0) f.add([]);
    else if (budget === 0) for (const l of spent) f.add([-l]);
    else if (budget < spent.length) sequentialAtMostK(f, spent, budget);
  }

  /**
   * A green-family cell that is green or a green wall at step t must still be left, so the
   * player's cell at t lies within T - 1 - t (over-approximate) moves of it.
   */
  private encodeDeadlines(): void {
    const f = this.f;
    const distances = new Map<number, Map<number, number>>();
    for (const p of this.layers[this.T]!) distances.set(p, this.reach.distancesFrom(p));
    for (let t = 1; t < this.T; t++) {
      const slack = this.T - 1 - t;
      for (const c of this.greenCells) {
        const alive = [this.kind(c, 'G', t), this.kind(c, 'GW', t)].filter((l) => l !== FALSE);
        if (alive.length === 0) continue;
        for (const p of this.layers[t]!) {
          const d = distances.get(p)!.get(c) ?? Number.POSITIVE_INFINITY;
          if (d <= slack) continue;
          for (const lit of alive) addFolded(f, [not(this.pos(p, t)), not(lit)]);
        }
      }
    }
  }
}
