/*
 * Cubie-level planning encoding of "solved within T moves", monotone in T (a stop action is
 * absorbing). The first S = T - r steps are simulated; the state at step S must lie within r
 * moves of solved (r = the goal perimeter's radius; r = 0: be solved).
 * n = movable corners (7 on the 2x2, whose DBL corner stays home; 8 on the 3x3), e = edges (0 or
 * 12), M = moves per step (2x2: 9 htm / 6 qtm; 3x3: 18 / 12), F = faces turned (3 or 6),
 * W = redundant move windows of length >= 3, D = edges of the perimeter's decision diagram.
 * Variables:
 *   c(t,p,k)  corner cubie k at corner position p              (S+1) n^2
 *   tw(t,p,o) twist o of the corner at position p               (S+1) 3n
 *   e(t,p,k)  edge cubie k at edge position p                   (S+1) e^2
 *   fl(t,p)   the edge at position p is flipped                 (S+1) e
 *   a(t,m)    move m at step t; stop(t) no move from t on       S (M+1)
 *   face(t,f) some move of face f at step t                      S F
 *   one per perimeter diagram node                               < D
 * Clauses:
 *   start units (and goal units when r = 0)                      n^2 + 3n + e^2 + e each
 *   exactly one action per step                                  S O(M)
 *   face(t,f) <-> its moves; stop(t) -> stop(t+1)                S (M + F + 1)
 *   transitions a & x(t,from) <-> x(t+1,to), per moved position  S M (8 (n + 3) + 8 (e + 1))
 *   frame: a position no turned face moves keeps its content     S (2n (n + 3) + 2e (e + 1))
 *   pruning: no face twice in a row (qtm: no X X', X' X, X' X', X X X), opposite faces in
 *   facelet order                                                S O(F)
 *   redundant windows, one clause per window and start step      <= S W
 *   perimeter: node & value -> successor, node -> allowed value   about 2 D
 *   optional per-step pattern bounds (distance to solved <= T - t, from the start <= t): forbidden
 *   patterns, or a disjunction of allowed ones when smaller      <= S * patterns
 *   optional exactly-one per position and per cubie              (S - 1) O(n^2 + e^2)
 */
import { CnfFormula, defineOr, exactlyOne, type Lit, type Model } from '@satfarm/cnf';

import type { EncodeOptions, Encoded } from '../game-definition.js';
import { FACES, type Face } from './cube.facelets.js';
import { decodeCubePlan, mergeTurns } from './cube.decode.js';
import { FALSE_NODE, GoalPerimeter, type StateComponent, TRUE_NODE } from './cube.perimeter.js';
import { redundantMoveWindows } from './cube.move-pruning.js';
import { type PatternSpec, PatternDatabase, defaultPatterns } from './cube.lower-bound.js';
import {
  CORNERS,
  type CubeInstance,
  type CubeSize,
  type CubeSolution,
  CubeState,
  type Metric,
  FIXED_CORNER,
  type Move,
  moveName,
  parseMove,
  solverMoves,
} from './cube.model.js';

/** The encoding choices a benchmark can switch by name through `EncodeOptions.variant`. */
export interface CubeEncodingVariant {
  /** Sequence pruning: none; no face twice in a row; and a fixed order for opposite faces. */
  prune: 'none' | 'face' | 'full';
  /** Per-step pattern-database bounds: none, towards the goal only, or towards goal and start. */
  bounds: 'none' | 'goal' | 'both';
  /** Pattern databases for the per-step bounds, by name (`co`, `eo`, `cp`, `ep:8,9,10,11`...). */
  patterns: string;
  /** Transition clauses backwards too (next state -> this state), not only forwards. */
  backward: boolean;
  /** Explicit exactly-one over each position's cubies and each cubie's positions (redundant). */
  onehot: boolean;
  /** Radius of the goal perimeter the plan may end in (see `GoalPerimeter`); 0 = reach solved. */
  perimeter: number;
  /** Longest redundant move window forbidden (see `redundantMoveWindows`); below 3 adds none. */
  window: number;
}

/**
 * The fastest choices measured (bench/README.md#cube-latest-figures): sequence pruning with
 * redundant windows everywhere; for the 2x2 a goal perimeter (5 htm, 6 qtm), which the 3x3 does
 * not gain from; per-step pattern bounds off (they add clauses without saving conflicts).
 */
export function defaultCubeVariant(size: CubeSize, metric: Metric): CubeEncodingVariant {
  return {
    prune: 'full',
    bounds: 'none',
    patterns: 'default',
    backward: true,
    onehot: false,
    window: size === 2 ? 5 : 4,
    perimeter: size === 2 ? (metric === 'htm' ? 5 : 6) : 0,
  };
}

/**
 * The variant named by `options.variant` over the defaults of the instance's size and metric;
 * throws RangeError on an unknown key or value.
 */
export function cubeVariant(
  instance: Pick<CubeInstance, 'size' | 'metric'>,
  options?: EncodeOptions,
): CubeEncodingVariant {
  const v = defaultCubeVariant(instance.size, instance.metric);
  for (const [key, value] of Object.entries(options?.variant ?? {})) {
    switch (key) {
      case 'prune':
        if (value !== 'none' && value !== 'face' && value !== 'full')
          throw new RangeError(`prune must be none|face|full, got ${String(value)}`);
        v.prune = value;
        break;
      case 'bounds':
        if (value !== 'none' && value !== 'goal' && value !== 'both')
          throw new RangeError(`bounds must be none|goal|both, got ${String(value)}`);
        v.bounds = value;
        break;
      case 'patterns':
        v.patterns = String(value);
        break;
      case 'perimeter':
        v.perimeter = Number(value);
        if (!Number.isInteger(v.perimeter) || v.perimeter < 0 || v.perimeter > 6)
          throw new RangeError(`perimeter must be an integer 0..6, got ${String(value)}`);
        break;
      case 'window':
        v.window = Number(value);
        if (!Number.isInteger(v.window) || v.window < 0 || v.window > 7)
          throw new RangeError(`window must be an integer 0..7, got ${String(value)}`);
        break;
      case 'backward':
      case 'onehot':
        v[key] = value === true || value === 'true';
        break;
      default:
        throw new RangeError(`unknown cube encoding option '${key}'`);
    }
  }
  return v;
}

/** Reads pattern names such as `co,eo,cp` or `ep:8,9,10,11;cp` (`;` separates when lists contain commas). */
export function parsePatternList(text: string, size: 2 | 3): PatternSpec[] {
  if (text === 'default') return [...defaultPatterns(size)];
  if (text === '' || text === 'none') return [];
  const parts = text.includes(';') ? text.split(';') : text.split(/,(?=[a-z])/);
  return parts.map((part) => {
    const [kind, list] = part.split(':') as [string, string | undefined];
    if (kind !== 'co' && kind !== 'eo' && kind !== 'cp' && kind !== 'ep')
      throw new RangeError(`unknown pattern '${part}'`);
    if (size === 2 && (kind === 'eo' || kind === 'ep'))
      throw new RangeError(`pattern '${part}' needs edges; the 2x2 has none`);
    return list === undefined ? { kind } : { kind, cubies: list.split(',').map(Number) };
  });
}

const OPPOSITE: Record<Face, Face> = { U: 'D', R: 'L', F: 'B', D: 'U', L: 'R', B: 'F' };

const startDatabases = new Map<string, PatternDatabase>();

/** The start-side database for an instance, kept for the few instances a process works on. */
function startDatabase(instance: CubeInstance, start: CubeState, spec: PatternSpec): PatternDatabase {
  const key = `${instance.size}:${instance.metric}:${instance.facelets}:${spec.kind}:${spec.cubies?.join(',') ?? ''}`;
  let db = startDatabases.get(key);
  if (db === undefined) {
    if (startDatabases.size >= 64) startDatabases.delete(startDatabases.keys().next().value!);
    db = PatternDatabase.from(start, instance.metric, spec);
    startDatabases.set(key, db);
  }
  return db;
}

/**
 * The formula "the cube is solved after at most `horizon` moves" (monotone in the horizon: a
 * stop action is absorbing) and the decoder of its models into a move list.
 */
export function encodeCube(
  instance: CubeInstance,
  horizon: number,
  options?: EncodeOptions,
): Encoded<CubeSolution> {
  return new CubeEncoder(instance, horizon, cubeVariant(instance, options)).encode();
}

class CubeEncoder {
  private readonly f = new CnfFormula();
  private readonly start: CubeState;
  private readonly moves: Move[];
  private readonly tables: CubeState[];
  private readonly faces: Face[];
  /** Movable corner positions, which are also the movable corner cubies. */
  private readonly corners: number[];
  private readonly edges: number[];
  private readonly c: number[][][] = [];
  private readonly tw: number[][][] = [];
  private readonly e: number[][][] = [];
  private readonly fl: number[][] = [];
  private readonly act: number[][] = [];
  private readonly stop: number[] = [];
  private readonly faceVar: Map<Face, number>[] = [];
  /** Steps encoded with transitions: the horizon less the perimeter's radius. */
  private readonly S: number;
  private readonly perimeter: GoalPerimeter | undefined;

  constructor(
    private readonly instance: CubeInstance,
    private readonly T: number,
    private readonly v: CubeEncodingVariant,
  ) {
    if (!Number.isInteger(T) || T < 0)
      throw new RangeError(`horizon must be a non-negative integer, got ${T}`);
    this.start = CubeState.fromFacelets(instance.size, instance.facelets);
    this.moves = solverMoves(instance.size, instance.metric);
    this.tables = this.moves.map((m) => CubeState.ofMove(instance.size, m));
    this.faces = [...new Set(this.moves.map((m) => m.face))];
    this.corners = CORNERS.map((_, i) => i).filter((i) => instance.size === 3 || i !== FIXED_CORNER);
    this.edges = Array.from(this.start.ep, (_, i) => i);
    const radius = Math.min(v.perimeter, T);
    this.perimeter = radius > 0 ? GoalPerimeter.of(instance.size, instance.metric, v.perimeter) : undefined;
    this.S = T - radius;
  }

  encode(): Encoded<CubeSolution> {
    const { f, T, S } = this;
    f.comment(
      `cube ${this.instance.size}x${this.instance.size} ${this.instance.metric} horizon ${T} variant ${JSON.stringify(this.v)}`,
    );
    for (let t = 0; t <= S; t++) this.stateVariables(t);
    for (let t = 0; t < S; t++) this.actionVariables(t);
    this.fixState(0, this.start);
    if (this.perimeter === undefined) this.fixState(S, CubeState.solved(this.instance.size));
    else this.enterPerimeter(this.perimeter, T - S);
    for (let t = 0; t < S; t++) {
      this.actionRules(t);
      this.transitions(t);
      this.frame(t);
    }
    if (this.v.prune !== 'none') this.pruning();
    if (this.v.window >= 3) this.windows();
    if (this.v.onehot) for (let t = 1; t < S; t++) this.oneHot(t);
    if (this.v.bounds !== 'none') this.patternBounds();
    const pool = f.pool;
    const { moves, instance, start, perimeter } = this;
    return {
      formula: f,
      decode: (model: Model) => {
        const plan = decodeCubePlan(model, pool, S, moves, instance.metric);
        if (perimeter === undefined) return plan;
        const reached = start.applyAll(plan.moves.map((name) => parseMove(name)!));
        const home = perimeter.distance(reached) === undefined ? [] : perimeter.pathHome(reached);
        return {
          moves: mergeTurns([...plan.moves.map((name) => parseMove(name)!), ...home]).map(moveName),
          metric: instance.metric,
        };
      },
      blockingClause: (model: Model) => {
        const lits: Lit[] = [];
        for (let t = 0; t < S; t++) {
          for (const m of moves) {
            const a = pool.lookup('a', t, moveName(m))!;
            if (model.value(a)) lits.push(-a);
          }
        }
        return lits;
      },
    };
  }

  /**
   * The state after the encoded steps lies within `radius` moves of solved, by the perimeter's
   * decision diagram: a variable per node (the root is implied), "node -> one of the values that
   * continue" (or "node -> not v" for each value that does not, when there are fewer of those and
   * the state may not be exact), and "node & component = v -> successor" per continuing value;
   * a single continuing value gives "node -> value" and "node -> successor".
   */
  private enterPerimeter(perimeter: GoalPerimeter, radius: number): void {
    const { components, level, next } = perimeter.diagram(radius);
    const node = level.map((_, n) => (n >= 3 ? this.f.pool.fresh() : 0));
    for (let n = 2; n < level.length; n++) {
      const component = components[level[n]!]!;
      const guard: Lit[] = n === 2 ? [] : [-node[n]!];
      const allowed: { lit: Lit; child: number }[] = [];
      const forbidden: Lit[] = [];
      next[n]!.forEach((child, value) => {
        const lit = this.componentLit(this.S, component, value);
        if (lit === undefined) return;
        if (child === FALSE_NODE) forbidden.push(lit);
        else allowed.push({ lit, child });
      });
      // "One of the allowed values" needs an exact state: every transition also read backwards.
      const positive = this.v.backward && allowed.length <= forbidden.length;
      if (positive) this.f.add([...guard, ...allowed.map((a) => a.lit)]);
      else for (const lit of forbidden) this.f.add([...guard, -lit]);
      for (const { lit, child } of allowed) {
        if (child === TRUE_NODE) continue;
        if (positive && allowed.length === 1) this.f.add([...guard, node[child]!]);
        else this.f.add([...guard, -lit, node[child]!]);
      }
    }
  }

  /** The literal "component has value v" at step t, or undefined for a value it cannot take. */
  private componentLit(t: number, component: StateComponent, value: number): Lit | undefined {
    switch (component.kind) {
      case 'cp': {
        const pi = this.corners.indexOf(component.position);
        const ki = this.corners.indexOf(value);
        return ki < 0 ? undefined : this.c[t]![pi]![ki];
      }
      case 'co':
        return this.tw[t]![this.corners.indexOf(component.position)]![value];
      case 'ep':
        return this.e[t]![component.position]![value];
      case 'eo':
        return value === 1 ? this.fl[t]![component.position]! : -this.fl[t]![component.position]!;
    }
  }

  private stateVariables(t: number): void {
    const pool = this.f.pool;
    this.c[t] = this.corners.map((p) => this.corners.map((k) => pool.named('c', t, p, k)));
    this.tw[t] = this.corners.map((p) => [0, 1, 2].map((o) => pool.named('tw', t, p, o)));
    this.e[t] = this.edges.map((p) => this.edges.map((k) => pool.named('e', t, p, k)));
    this.fl[t] = this.edges.map((p) => pool.named('fl', t, p));
  }

  private actionVariables(t: number): void {
    const pool = this.f.pool;
    this.act[t] = this.moves.map((m) => pool.named('a', t, moveName(m)));
    this.stop[t] = pool.named('stop', t);
    this.faceVar[t] = new Map(this.faces.map((face) => [face, pool.named('face', t, face)]));
  }

  private fixState(t: number, s: CubeState): void {
    this.corners.forEach((p, pi) => {
      this.corners.forEach((k, ki) =>
        this.f.add([s.cp[p] === k ? this.c[t]![pi]![ki]! : -this.c[t]![pi]![ki]!]),
      );
      for (let o = 0; o < 3; o++) this.f.add([s.co[p] === o ? this.tw[t]![pi]![o]! : -this.tw[t]![pi]![o]!]);
    });
    this.edges.forEach((p, pi) => {
      this.edges.forEach((k, ki) =>
        this.f.add([s.ep[p] === k ? this.e[t]![pi]![ki]! : -this.e[t]![pi]![ki]!]),
      );
      this.f.add([s.eo[p] === 1 ? this.fl[t]![pi]! : -this.fl[t]![pi]!]);
    });
  }

  private actionRules(t: number): void {
    const acts = this.act[t]!;
    exactlyOne(this.f, [...acts, this.stop[t]!]);
    for (const face of this.faces) {
      defineOr(
        this.f,
        this.faceVar[t]!.get(face)!,
        acts.filter((_, i) => this.moves[i]!.face === face),
      );
    }
    if (t + 1 < this.S) this.f.add([-this.stop[t]!, this.stop[t + 1]!]);
  }

  private transitions(t: number): void {
    const { f } = this;
    const back = this.v.backward;
    this.tables.forEach((table, mi) => {
      const a = this.act[t]![mi]!;
      this.corners.forEach((q, qi) => {
        const p = table.cp[q]!;
        if (p === q) return;
        const pi = this.corners.indexOf(p);
        const d = table.co[q]!;
        for (let ki = 0; ki < this.corners.length; ki++) {
          const now = this.c[t]![pi]![ki]!;
          const next = this.c[t + 1]![qi]![ki]!;
          f.add([-a, -now, next]);
          if (back) f.add([-a, now, -next]);
        }
        for (let o = 0; o < 3; o++) {
          const now = this.tw[t]![pi]![o]!;
          const next = this.tw[t + 1]![qi]![(o + d) % 3]!;
          f.add([-a, -now, next]);
          if (back) f.add([-a, now, -next]);
        }
      });
      this.edges.forEach((q, qi) => {
        const p = table.ep[q]!;
        if (p === q) return;
        const pi = this.edges.indexOf(p);
        for (let ki = 0; ki < this.edges.length; ki++) {
          const now = this.e[t]![pi]![ki]!;
          const next = this.e[t + 1]![qi]![ki]!;
          f.add([-a, -now, next]);
          if (back) f.add([-a, now, -next]);
        }
        const now = this.fl[t]![pi]!;
        const next = table.eo[q] === 1 ? -this.fl[t + 1]![qi]! : this.fl[t + 1]![qi]!;
        f.add([-a, -now, next]);
        f.add([-a, now, -next]);
      });
    });
  }

  private frame(t: number): void {
    const { f } = this;
    const faceLits = (q: number, corner: boolean): Lit[] =>
      this.faces
        .filter((face) =>
          this.moves.some(
            (m, i) => m.face === face && (corner ? this.tables[i]!.cp[q] : this.tables[i]!.ep[q]) !== q,
          ),
        )
        .map((face) => this.faceVar[t]!.get(face)!);
    this.corners.forEach((q, qi) => {
      const moved = faceLits(q, true);
      const keep = (now: Lit, next: Lit): void => {
        f.add([-now, next, ...moved]);
        f.add([now, -next, ...moved]);
      };
      for (let ki = 0; ki < this.corners.length; ki++) keep(this.c[t]![qi]![ki]!, this.c[t + 1]![qi]![ki]!);
      for (let o = 0; o < 3; o++) keep(this.tw[t]![qi]![o]!, this.tw[t + 1]![qi]![o]!);
    });
    this.edges.forEach((q, qi) => {
      const moved = faceLits(q, false);
      const keep = (now: Lit, next: Lit): void => {
        f.add([-now, next, ...moved]);
        f.add([now, -next, ...moved]);
      };
      for (let ki = 0; ki < this.edges.length; ki++) keep(this.e[t]![qi]![ki]!, this.e[t + 1]![qi]![ki]!);
      keep(this.fl[t]![qi]!, this.fl[t + 1]![qi]!);
    });
  }

  private pruning(): void {
    const { f, S } = this;
    const qtm = this.instance.metric === 'qtm';
    const a = (t: number, face: Face, turns: number): Lit | undefined => {
      const i = this.moves.findIndex((m) => m.face === face && m.turns === turns);
      return i < 0 ? undefined : this.act[t]![i];
    };
    for (let t = 0; t + 1 < S; t++) {
      for (const face of this.faces) {
        const now = this.faceVar[t]!.get(face)!;
        const next = this.faceVar[t + 1]!.get(face)!;
        if (!qtm) {
          f.add([-now, -next]);
        } else {
          const cw = (s: number): Lit => a(s, face, 1)!;
          const ccw = (s: number): Lit => a(s, face, 3)!;
          f.add([-cw(t), -ccw(t + 1)]);
          f.add([-ccw(t), -cw(t + 1)]);
          f.add([-ccw(t), -ccw(t + 1)]);
          if (t + 2 < S) f.add([-cw(t), -cw(t + 1), -cw(t + 2)]);
        }
        if (this.v.prune === 'full') {
          const opposite = OPPOSITE[face];
          // Opposite faces commute: only the order "lower facelet index first" is kept.
          if (this.faces.includes(opposite) && FACES.indexOf(opposite) < FACES.indexOf(face)) {
            f.add([-now, -this.faceVar[t + 1]!.get(opposite)!]);
          }
        }
      }
    }
  }

  private windows(): void {
    for (const w of redundantMoveWindows(this.instance.size, this.instance.metric, this.v.window)) {
      if (w.length < 3) continue;
      for (let t = 0; t + w.length <= this.S; t++) this.f.add(w.map((m, i) => -this.act[t + i]![m]!));
    }
  }

  private oneHot(t: number): void {
    const grid = (x: number[][]): void => {
      for (const row of x) exactlyOne(this.f, row);
      for (let k = 0; k < x.length; k++)
        exactlyOne(
          this.f,
          x.map((row) => row[k]!),
        );
    };
    grid(this.c[t]!);
    grid(this.e[t]!);
    for (const row of this.tw[t]!) exactlyOne(this.f, row);
  }

  private patternBounds(): void {
    const specs = parsePatternList(this.v.patterns, this.instance.size);
    for (const spec of specs) {
      const toSolved = PatternDatabase.toSolved(this.instance.size, this.instance.metric, spec);
      const fromStart = this.v.bounds === 'both' ? startDatabase(this.instance, this.start, spec) : undefined;
      for (let t = 1; t < this.S; t++) {
        const limitGoal = this.T - t;
        const limitStart = t;
        const entries: { values: Uint8Array; allowed: boolean }[] = [];
        let forbidden = 0;
        for (const [values, d] of toSolved.entries()) {
          let ok = d <= limitGoal;
          if (ok && fromStart !== undefined) ok = fromStart.distanceOfPattern(values) <= limitStart;
          if (!ok) forbidden++;
          entries.push({ values, allowed: ok });
        }
        if (forbidden === 0) continue;
        const allowed = entries.length - forbidden;
        // Selectors for the allowed patterns need an exact state (transitions read both ways).
        if (forbidden <= allowed * 2 || !this.v.backward) {
          for (const en of entries)
            if (!en.allowed) this.f.add(this.patternLits(spec, t, en.values).map((l) => -l));
        } else {
          const selectors: Lit[] = [];
          for (const en of entries) {
            if (!en.allowed) continue;
            const s = this.f.pool.fresh();
            selectors.push(s);
            for (const l of this.patternLits(spec, t, en.values)) this.f.add([-s, l]);
          }
          this.f.add(selectors);
        }
      }
    }
  }

  /**
   * Literals that together say "the state at step t has this pattern"; one position is left out
   * of full patterns, since the others determine it (twist and flip sums, permutations).
   */
  private patternLits(spec: PatternSpec, t: number, values: Uint8Array): Lit[] {
    const lits: Lit[] = [];
    const corner = spec.kind === 'co' || spec.kind === 'cp';
    const positions = corner ? this.corners : this.edges;
    const full = spec.kind === 'co' || spec.kind === 'eo' || spec.cubies === undefined;
    const used = full ? positions.slice(0, -1) : positions;
    for (const q of used) {
      const qi = positions.indexOf(q);
      const v = values[q]!;
      switch (spec.kind) {
        case 'co':
          lits.push(this.tw[t]![qi]![v]!);
          break;
        case 'eo':
          lits.push(v === 1 ? this.fl[t]![qi]! : -this.fl[t]![qi]!);
          break;
        case 'cp':
          if (v !== 255) lits.push(this.c[t]![qi]![this.corners.indexOf(v)]!);
          break;
        case 'ep':
          if (v !== 255) lits.push(this.e[t]![qi]![v]!);
          break;
      }
    }
    return lits;
  }
}
