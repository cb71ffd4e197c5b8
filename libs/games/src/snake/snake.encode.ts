/*
 * Snake at horizon T: "every apple eaten by step T" (or, for `survive` S, a walk of S steps).
 * R(t): the cells the head may occupy at step t (SnakeReach: reachable by t within the grid's
 * parity class, initial body cells only once they can have left); n = |R(t)|, N = sum of n over
 * t <= T; P apples, L0 the start length, B the initial body's cells, Lmax = L0 + P, W x H the grid.
 * Variables:
 *   head(x,y,t) for (x,y) in R(t): N;  eaten(a,t) from a's first possible eating step: <= P T;
 *   any order: ate(t) "an apple is eaten at step t" and count(k,t) "at least k apples eaten by t"
 *   (k <= P, k <= t): <= T + P T;  given order: count(k,t) is eaten(k-1,t), no variable;
 *   done(t) is count(P,t);  at-most-one auxiliaries per step: W + H + (W-1) + (H-1) (product,
 *   the default), n-1 (sequential), ~n/2 (commander), none (pairwise).
 * Clauses:
 *   start: 1 unit;  some head at t unless done(t-1): T clauses of n+1 literals;
 *   at most one head per step: product 2n + 3(W+H), sequential 3n, commander ~3.5n, pairwise n(n-1)/2;
 *   moves: head(c,t) -> a neighbour at t-1, head(c,t-1) -> done(t-1) or a neighbour at t: 2N of
 *   at most 6 literals;  no head after done: N binary;
 *   eaten(a,t) <-> eaten(a,t-1) or head(a's cell,t) [given order: and eaten(a-1,t-1)]: 3-4 P T;
 *   ate(t) exactly when the head enters an uneaten apple: 2P + 1 per step;
 *   count(k,t) <-> count(k,t-1) or (count(k-1,t-1) and ate(t)): 4 P T;
 *   no bite: head(c,s) and head(c,t) with d = t - s even, 2 <= d < Lmax, only while fewer than
 *   d + 1 - L0 apples are eaten by t (s < 0: the initial body): <= N (Lmax - 2) / 2 clauses of 2-3
 *   literals;  goal: done(T), 1 unit.
 * Redundant distance clauses (`deadline`), for the UNSAT proofs, d(.,.) Manhattan:
 *   single: head at c at t and d(c,a) > T - t: a is eaten by t: <= N P binary (given order:
 *     one per head cell, with the distances along the order);
 *   pairs (default): single, plus for apples a, b with min(d(c,a), d(c,b)) + d(a,b) > T - t: one
 *     of them is eaten by t: <= N P^2 / 2 ternary (any order only);
 *   window: head at c at t: a is eaten by t - d(c,a), or not before t + d(c,a): <= N P ternary.
 * Monotone in T: after done the head vanishes and nothing else is asked.
 *
 * The other elements (docs/games.md#snake); without them the formula above is unchanged.
 *   walls: never in R(t); d(.,.) is then the distance around them.
 *   start any: R(0) is every allowed start cell, and exactly one head there (at-most-one as above).
 *   strict tail: the no-bite clause asks fewer than d - L0 apples eaten by t - 1 (the body before
 *   the step) rather than d + 1 - L0 by t, for 2 <= d <= Lmax.
 *   spawn chain of S cells (order any): sites are the distinct cells of apples and chain, A of
 *   them; apple(i,t) "site i holds an apple after step t" (t = 0: the apples, constants): A T;
 *   ate(t) <-> some site entered while it holds an apple; count(k,t) as for any order, k <= P + S;
 *   apple(i,t) <-> (apple(i,t-1) and not head(i,t)) or the count reaching j + 1 at t for a chain
 *   index j on site i, with spawned(j,t) for that last case: ~6 A T clauses;
 *   done(t) <-> count(S,t) and no apple(i,t): A + 2 per step;  deadlines: only single, as
 *   "head at c at t and d(c,i) > T - t: no apple on site i at t": <= N A binary.
 */
import {
  type AmoEncoding,
  atMostOne,
  checkBuildLimits,
  CnfFormula,
  type EncodingSink,
  type Lit,
  sequentialAtMostK,
} from '@satfarm/cnf';

import type { EncodeOptions, Encoded } from '../game-definition.js';
import { decodeSnake } from './snake.decode.js';
import type { SnakeInstance, SnakeSolution } from './snake.model.js';
import { SnakeDistances, SnakeReach } from './snake.reach.js';

/** How the at-most-one-head constraint of each step is encoded. */
export type SnakeAmo = 'product' | Exclude<AmoEncoding, 'auto'>;

/** Encoding choices, for benchmarks: every choice gives the same answers. */
export interface SnakeEncodingChoices {
  amo: SnakeAmo;
  /** Redundant distance clauses (see the top of this file). */
  deadline: 'none' | 'single' | 'window' | 'pairs';
  /** Head variables only where SnakeReach allows them (false: every cell at every step). */
  reach: boolean;
}

/** The choices used when none are given (the fastest measured in bench/snake). */
export const DEFAULT_SNAKE_ENCODING: SnakeEncodingChoices = {
  amo: 'product',
  deadline: 'pairs',
  reach: true,
};

/** Reads `options.variant` (keys `amo`, `deadline`, `reach`) over the defaults. */
export function snakeEncodingChoices(options?: EncodeOptions): SnakeEncodingChoices {
  const v = options?.variant ?? {};
  const amo = v.amo ?? DEFAULT_SNAKE_ENCODING.amo;
  const deadline = v.deadline ?? DEFAULT_SNAKE_ENCODING.deadline;
  const reach = v.reach ?? DEFAULT_SNAKE_ENCODING.reach;
  if (!['product', 'sequential', 'commander', 'pairwise'].includes(String(amo))) {
    throw new RangeError(`unknown snake at-most-one encoding '${String(amo)}'`);
  }
  if (!['none', 'single', 'window', 'pairs'].includes(String(deadline))) {
    throw new RangeError(`unknown snake deadline choice '${String(deadline)}'`);
  }
  return {
    amo: amo as SnakeAmo,
    deadline: deadline as SnakeEncodingChoices['deadline'],
    reach: reach !== false,
  };
}

/** A literal that is constant true. */
const TRUE = Number.POSITIVE_INFINITY;
/** A literal that is constant false. */
const FALSE = 0;

function not(lit: number): number {
  return lit === TRUE ? FALSE : lit === FALSE ? TRUE : -lit;
}

/** Adds a clause over literals that may be the constants: dropped when one is true. */
function addFolded(sink: EncodingSink, lits: readonly number[]): void {
  if (lits.includes(TRUE)) return;
  sink.add(lits.filter((l) => l !== FALSE));
}

/** Encodes `instance` at horizon `horizon` (see the comment at the top of this file). */
export function encodeSnake(
  instance: SnakeInstance,
  horizon: number,
  options?: EncodeOptions,
): Encoded<SnakeSolution> {
  return new SnakeEncoder(instance, horizon, snakeEncodingChoices(options)).encode();
}

class SnakeEncoder {
  private readonly formula = new CnfFormula();
  private readonly reach: SnakeReach;
  private readonly T: number;
  private readonly P: number;
  /** The most apples a plan can eat: P, plus the spawn chain's length with one. */
  private readonly K: number;
  private readonly appleCells: number[];
  private readonly distances: SnakeDistances;
  /** With `spawn`: the cells that ever hold an apple (apples, then new chain cells). */
  private readonly sites: number[] = [];
  /** With `spawn`: for each site, the chain indices that put an apple on it. */
  private readonly siteSpawns: number[][] = [];
  private readonly S: number;
  private readonly layers: (readonly number[])[] = [];
  /** onLayer[t][cell] = 1 when the head may be on `cell` at step t (`layers[t]` as a bitmap). */
  private readonly onLayer: Uint8Array[] = [];
  /** eatable[a] = first step at which apple a can be eaten. */
  private readonly eatable: number[];
  /** eatableBy[t] = how many apples can be eaten by step t at most. */
  private readonly eatableBy: number[];

  constructor(
    private readonly instance: SnakeInstance,
    private readonly horizon: number,
    private readonly choices: SnakeEncodingChoices,
  ) {
    this.reach = new SnakeReach(instance);
    this.T = instance.survive ?? horizon;
    this.P = instance.apples.length;
    const grid = this.reach.grid;
    this.appleCells = instance.apples.map((c) => grid.index(c));
    this.distances = new SnakeDistances(grid, instance);
    this.S = instance.spawn?.length ?? 0;
    this.K = this.P + this.S;
    if (this.S > 0) {
      const siteOf = new Map<number, number>();
      const site = (cell: number): number => {
        let i = siteOf.get(cell);
        if (i === undefined) {
          siteOf.set(cell, (i = this.sites.length));
          this.sites.push(cell);
          this.siteSpawns.push([]);
        }
        return i;
      };
      this.appleCells.forEach(site);
      instance.spawn!.forEach((c, j) => this.siteSpawns[site(grid.index(c))]!.push(j));
    }
    const walls = new Set((instance.walls ?? []).map((c) => grid.index(c)));
    const all = Array.from({ length: grid.size }, (_, c) => c).filter((c) => !walls.has(c));
    for (let t = 0; t <= this.T; t++) {
      // On a large grid and horizon this runs long before the first clause (docs/games.md#snake):
      // a deadline, a cancel or a shutdown may stop it here too.
      checkBuildLimits();
      const layer = choices.reach || t === 0 ? this.reach.cellsAt(t) : all;
      this.layers.push(layer);
      const on = new Uint8Array(grid.size);
      for (const c of layer) on[c] = 1;
      this.onLayer.push(on);
    }
    this.eatable = this.appleCells.map((c) => (choices.reach ? this.reach.firstArrival(c) : 1));
    if (instance.order === 'given') {
      for (let k = 1; k < this.P; k++) {
        const chained =
          this.eatable[k - 1]! + this.distances.between(this.appleCells[k - 1]!, this.appleCells[k]!);
        this.eatable[k] = Math.max(this.eatable[k]!, chained);
      }
    }
    this.eatableBy = Array.from({ length: this.T + 1 }, (_, t) => this.eatable.filter((e) => e <= t).length);
    if (this.S > 0) {
      // The first apple eaten is a visible one; then at most one a step.
      const soonest = Math.min(...this.eatable);
      this.eatableBy = this.eatableBy.map((_, t) => (t < soonest ? 0 : Math.min(this.K, t - soonest + 1)));
    }
  }

  encode(): Encoded<SnakeSolution> {
    const f = this.formula;
    if (this.instance.survive !== undefined && this.horizon < this.instance.survive) {
      f.add([]);
      return { formula: f, decode: () => ({ path: [] }) };
    }
    f.comment(`snake ${this.instance.width}x${this.instance.height} apples=${this.P} T=${this.T}`);
    if (this.instance.start === 'any') {
      // The plan chooses its start: exactly one of the allowed cells.
      const starts = this.layers[0]!;
      const heads = starts.map((c) => this.head(c, 0));
      addFolded(f, heads);
      this.atMostOneHead(starts, heads);
    } else f.add([this.head(this.reach.grid.index(this.instance.body[0]!), 0)]);
    for (let t = 1; t <= this.T; t++) {
      this.encodeStep(t);
      this.encodeApples(t);
      this.encodeBites(t);
    }
    if (this.instance.survive === undefined) addFolded(f, [this.done(this.T)]);
    if (this.choices.deadline !== 'none') this.encodeDeadlines();
    return { formula: f, decode: (model) => decodeSnake(model, f.pool, this.instance, this.T) };
  }

  private head(cell: number, t: number): number {
    if (t < 0 || t > this.T || this.onLayer[t]![cell] !== 1) return FALSE;
    const [x, y] = this.reach.grid.cell(cell);
    return this.formula.pool.named('head', x, y, t);
  }

  private eaten(a: number, t: number): number {
    if (a < 0) return TRUE;
    if (t < this.eatable[a]!) return FALSE;
    return this.formula.pool.named('eaten', a, t);
  }

  /** With `spawn`: "site i holds an apple after step t". */
  private apple(i: number, t: number): number {
    if (t <= 0) return i < this.P && t === 0 ? TRUE : FALSE;
    return this.formula.pool.named('apple', i, t);
  }

  /** With `spawn`: "chain cell j appears at step t" (implies the (j+1)-th apple is eaten at t). */
  private spawned(j: number, t: number): number {
    if (this.count(j + 1, t) === FALSE) return FALSE;
    return this.formula.pool.named('spawned', j, t);
  }

  /** "At least k apples are eaten by step t". */
  private count(k: number, t: number): number {
    if (k <= 0) return TRUE;
    if (k > this.K) return FALSE;
    if (this.instance.order === 'given') return this.eaten(k - 1, t);
    if (k > t || k > this.eatableBy[t]!) return FALSE;
    return this.formula.pool.named('count', k, t);
  }

  private done(t: number): number {
    if (this.instance.survive !== undefined) return FALSE;
    if (this.S > 0) {
      // No apple left and the whole chain spawned.
      if (this.P === 0 || this.count(this.S, t) === FALSE) return FALSE;
      return this.formula.pool.named('done', t);
    }
    return this.P === 0 ? TRUE : this.count(this.P, t);
  }

  private encodeStep(t: number): void {
    const f = this.formula;
    const grid = this.reach.grid;
    const layer = this.layers[t]!;
    const doneBefore = this.done(t - 1);
    const heads = layer.map((c) => this.head(c, t));
    addFolded(f, [doneBefore, ...heads]);
    this.atMostOneHead(layer, heads);
    for (const c of layer) {
      const h = this.head(c, t);
      addFolded(f, [-h, ...grid.neighbours(c).map((n) => this.head(n, t - 1))]);
      addFolded(f, [not(doneBefore), -h]);
    }
    for (const p of this.layers[t - 1]!) {
      addFolded(f, [-this.head(p, t - 1), doneBefore, ...grid.neighbours(p).map((n) => this.head(n, t))]);
    }
  }

  private atMostOneHead(layer: readonly number[], heads: readonly Lit[]): void {
    const f = this.formula;
    if (this.choices.amo !== 'product') return atMostOne(f, heads, this.choices.amo);
    if (heads.length <= 1) return;
    const rows = new Map<number, Lit>();
    const cols = new Map<number, Lit>();
    layer.forEach((c, i) => {
      const [x, y] = this.reach.grid.cell(c);
      let row = rows.get(y);
      if (row === undefined) rows.set(y, (row = f.pool.fresh()));
      let col = cols.get(x);
      if (col === undefined) cols.set(x, (col = f.pool.fresh()));
      f.add([-heads[i]!, row]);
      f.add([-heads[i]!, col]);
    });
    for (const line of [[...rows.values()], [...cols.values()]]) {
      if (line.length > 1) sequentialAtMostK(f, line, 1);
    }
  }

  private encodeApples(t: number): void {
    if (this.S > 0) return this.encodeSpawnApples(t);
    const f = this.formula;
    const given = this.instance.order === 'given';
    for (let a = 0; a < this.P; a++) {
      const now = this.eaten(a, t);
      if (now === FALSE) continue;
      const before = this.eaten(a, t - 1);
      const there = this.head(this.appleCells[a]!, t);
      const present = given ? this.eaten(a - 1, t - 1) : TRUE;
      addFolded(f, [not(before), now]);
      addFolded(f, [not(present), not(there), now]);
      addFolded(f, [not(now), before, there]);
      if (given) addFolded(f, [not(now), before, present]);
    }
    if (given || this.P === 0) return;
    const ate = f.pool.named('ate', t);
    const entered: number[] = [];
    for (let a = 0; a < this.P; a++) {
      const there = this.head(this.appleCells[a]!, t);
      if (there === FALSE) continue;
      entered.push(there);
      addFolded(f, [-there, this.eaten(a, t - 1), ate]);
      addFolded(f, [-ate, -there, not(this.eaten(a, t - 1))]);
    }
    addFolded(f, [-ate, ...entered]);
    this.encodeCountStep(t, ate, this.P);
  }

  /** The unary count of apples eaten, up to `most`: count(k, t) iff count(k, t-1), or count(k-1, t-1) and ate(t). */
  private encodeCountStep(t: number, ate: number, most: number): void {
    const f = this.formula;
    for (let k = 1; k <= most; k++) {
      const now = this.count(k, t);
      if (now === FALSE) continue;
      const before = this.count(k, t - 1);
      const below = this.count(k - 1, t - 1);
      addFolded(f, [not(before), now]);
      addFolded(f, [not(below), -ate, now]);
      addFolded(f, [not(now), before, below]);
      addFolded(f, [not(now), before, ate]);
    }
  }

  /**
   * With `spawn` (docs/games.md#snake): ate(t) when the head enters a site holding an apple; the
   * count of apples eaten as for order `any`; a site keeps its apple until the head enters it, and
   * gains one when the count reaches j + 1 for a chain index j on it (after the eating).
   */
  private encodeSpawnApples(t: number): void {
    const f = this.formula;
    const ate = f.pool.named('ate', t);
    const entered: number[] = [];
    this.sites.forEach((cell, i) => {
      const there = this.head(cell, t);
      const before = this.apple(i, t - 1);
      if (there === FALSE || before === FALSE) return;
      entered.push(there);
      addFolded(f, [-there, not(before), ate]);
      addFolded(f, [-ate, -there, before]);
    });
    addFolded(f, [-ate, ...entered]);
    this.encodeCountStep(t, ate, this.K);
    this.sites.forEach((cell, i) => {
      const now = this.apple(i, t);
      const before = this.apple(i, t - 1);
      const there = this.head(cell, t);
      addFolded(f, [not(before), there, now]);
      const appear: number[] = [];
      for (const j of this.siteSpawns[i]!) {
        addFolded(f, [not(this.count(j + 1, t)), this.count(j + 1, t - 1), now]);
        const sp = this.spawned(j, t);
        if (sp === FALSE) continue;
        appear.push(sp);
        addFolded(f, [not(sp), this.count(j + 1, t)]);
        addFolded(f, [not(sp), not(this.count(j + 1, t - 1))]);
      }
      addFolded(f, [not(now), before, ...appear]);
      addFolded(f, [not(now), not(there), ...appear]);
    });
    const done = this.done(t);
    if (done === FALSE) return;
    const all = this.count(this.S, t);
    addFolded(f, [not(done), all]);
    this.sites.forEach((_, i) => addFolded(f, [not(done), not(this.apple(i, t))]));
    addFolded(f, [done, not(all), ...this.sites.map((_, i) => this.apple(i, t))]);
  }

  /**
   * The head at t may not enter a cell it left fewer than L(t) steps ago (the body then); with a
   * strict tail, none it left at most L(t-1) steps ago (the body before the step).
   */
  private encodeBites(t: number): void {
    const f = this.formula;
    const grid = this.reach.grid;
    const L0 = this.instance.length;
    const longest = L0 + this.K;
    const strict = this.instance.tail === 'strict';
    const body = this.instance.body.map((c) => grid.index(c));
    // With `start: any` the body is the head at step 0 alone.
    const bodyLength = Math.max(1, body.length);
    for (const c of this.layers[t]!) {
      const h = this.head(c, t);
      for (let d = 2; strict ? d <= longest : d < longest; d += 2) {
        const s = t - d;
        if (s < -(bodyLength - 1)) break;
        const then = s >= 0 ? this.head(c, s) : body[-s] === c ? TRUE : FALSE;
        if (then === FALSE) continue;
        const grown = strict ? this.count(d - L0, t - 1) : this.count(d + 1 - L0, t);
        addFolded(f, [not(then), -h, not(grown)]);
      }
    }
  }

  private encodeDeadlines(): void {
    if (this.S > 0) return this.encodeSpawnDeadlines();
    const f = this.formula;
    const distance = (a: number, b: number): number => this.distances.between(a, b);
    const given = this.instance.order === 'given';
    const tail: number[] = new Array<number>(this.P).fill(0);
    if (given) {
      for (let k = this.P - 2; k >= 0; k--) {
        tail[k] = tail[k + 1]! + distance(this.appleCells[k]!, this.appleCells[k + 1]!);
      }
    }
    const window = this.choices.deadline === 'window';
    for (let t = 0; t <= this.T; t++) {
      const slack = this.T - t;
      for (const c of this.layers[t]!) {
        const h = this.head(c, t);
        const far = (a: number): number => distance(c, this.appleCells[a]!);
        if (given && !window) {
          let last = -1;
          for (let k = 0; k < this.P; k++) if (far(k) + tail[k]! > slack) last = k;
          if (last >= 0) addFolded(f, [-h, this.eaten(last, t)]);
          continue;
        }
        for (let a = 0; a < this.P; a++) {
          const d = far(a);
          if (window && d > 0) {
            // The head is d steps from apple a, so a is eaten d steps before now or d steps after.
            const later = d + tail[a]! > slack ? FALSE : this.eaten(a, t + d - 1);
            addFolded(f, [-h, not(later), this.eaten(a, t - d)]);
          } else if (d + tail[a]! > slack) addFolded(f, [-h, this.eaten(a, t)]);
        }
        if (this.choices.deadline !== 'pairs') continue;
        for (let a = 0; a < this.P; a++) {
          if (far(a) > slack) continue;
          for (let b = a + 1; b < this.P; b++) {
            if (far(b) > slack) continue;
            const between = distance(this.appleCells[a]!, this.appleCells[b]!);
            if (Math.min(far(a), far(b)) + between > slack) {
              addFolded(f, [-h, this.eaten(a, t), this.eaten(b, t)]);
            }
          }
        }
      }
    }
  }

  /** With `spawn`: an apple on a site at t is eaten by T, so the head at t is near enough to it. */
  private encodeSpawnDeadlines(): void {
    for (let t = 1; t <= this.T; t++) {
      for (const c of this.layers[t]!) {
        const h = this.head(c, t);
        this.sites.forEach((cell, i) => {
          if (this.distances.between(c, cell) > this.T - t)
            addFolded(this.formula, [-h, not(this.apple(i, t))]);
        });
      }
    }
  }
}
