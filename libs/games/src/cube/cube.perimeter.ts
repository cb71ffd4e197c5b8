import {
  CORNERS,
  CubeState,
  type CubeSize,
  FIXED_CORNER,
  inverseMove,
  type Metric,
  type Move,
  solverMoves,
} from './cube.model.js';

/** One component of a state: the cubie or the twist/flip at a position. */
export interface StateComponent {
  readonly kind: 'cp' | 'co' | 'ep' | 'eo';
  readonly position: number;
}

/**
 * A reduced ordered decision diagram of a set of states: node `n` tests component
 * `components[level[n]]`; `next[n][value]` is the node reached (TRUE_NODE when every later
 * component is free to match, FALSE_NODE when no member has that value). Node 2 is the root.
 */
export interface StateDiagram {
  components: StateComponent[];
  level: number[];
  next: Int32Array[];
}

export const FALSE_NODE = 0;
export const TRUE_NODE = 1;

/**
 * The components that determine a state the solver can reach, in diagram order: the cubie at
 * every movable corner position but the last, then the twists, then the same for edges (the last
 * of each follows from the others).
 */
export function stateComponents(size: CubeSize): StateComponent[] {
  const corners = CORNERS.map((_, i) => i)
    .filter((i) => size === 3 || i !== FIXED_CORNER)
    .slice(0, -1);
  const edges = size === 3 ? Array.from({ length: 11 }, (_, i) => i) : [];
  return [
    ...corners.map((position) => ({ kind: 'cp' as const, position })),
    ...corners.map((position) => ({ kind: 'co' as const, position })),
    ...edges.map((position) => ({ kind: 'ep' as const, position })),
    ...edges.map((position) => ({ kind: 'eo' as const, position })),
  ];
}

function componentValue(s: CubeState, c: StateComponent): number {
  return c.kind === 'cp'
    ? s.cp[c.position]!
    : c.kind === 'co'
      ? s.co[c.position]!
      : c.kind === 'ep'
        ? s.ep[c.position]!
        : s.eo[c.position]!;
}

const DOMAIN = { cp: 8, co: 3, ep: 12, eo: 2 } as const;

const stateKey = (s: CubeState): string => String.fromCharCode(...s.cp, ...s.co, ...s.ep, ...s.eo);

/**
 * The perimeter of radius r around the solved cube: every state within r moves of solved, with
 * its distance and a first move of a shortest way home, found by breadth-first search from solved
 * (the 2x2 has 12,224 states within 5 htm moves, the 3x3 46,826 within 4). It is the exact
 * distance near the goal and the bound "more than r" elsewhere, so a plan may end by entering the
 * perimeter instead of by reaching solved. It is cached per size, metric and radius.
 */
export class GoalPerimeter {
  private static readonly cache = new Map<string, GoalPerimeter>();

  private readonly diagrams = new Map<number, StateDiagram>();

  private constructor(
    readonly size: CubeSize,
    readonly radius: number,
    private readonly byKey: Map<string, { state: CubeState; distance: number; home: Move | undefined }>,
  ) {}

  static of(size: CubeSize, metric: Metric, radius: number): GoalPerimeter {
    const k = `${size}:${metric}:${radius}`;
    let p = GoalPerimeter.cache.get(k);
    if (p === undefined) {
      p = GoalPerimeter.build(size, metric, radius);
      GoalPerimeter.cache.set(k, p);
    }
    return p;
  }

  private static build(size: CubeSize, metric: Metric, radius: number): GoalPerimeter {
    const moves = solverMoves(size, metric);
    const solved = CubeState.solved(size);
    const byKey = new Map<string, { state: CubeState; distance: number; home: Move | undefined }>([
      [stateKey(solved), { state: solved, distance: 0, home: undefined }],
    ]);
    let frontier = [solved];
    for (let d = 1; d <= radius; d++) {
      const next: CubeState[] = [];
      for (const s of frontier) {
        for (const m of moves) {
          const n = s.apply(m);
          const k = stateKey(n);
          if (byKey.has(k)) continue;
          byKey.set(k, { state: n, distance: d, home: inverseMove(m) });
          next.push(n);
        }
      }
      frontier = next;
    }
    return new GoalPerimeter(size, radius, byKey);
  }

  /** Number of states within the radius. */
  get count(): number {
    return this.byKey.size;
  }

  /** Every state within `radius` (at most the perimeter's radius) moves of solved. */
  *states(radius = this.radius): IterableIterator<CubeState> {
    for (const { state, distance } of this.byKey.values()) if (distance <= radius) yield state;
  }

  /** The exact distance of a state within the radius, or undefined beyond it. */
  distance(state: CubeState): number | undefined {
    return this.byKey.get(stateKey(state))?.distance;
  }

  /** The decision diagram of the states within `radius` of solved (cached). */
  diagram(radius = this.radius): StateDiagram {
    let d = this.diagrams.get(radius);
    if (d === undefined) {
      d = buildDiagram(stateComponents(this.size), [...this.states(radius)]);
      this.diagrams.set(radius, d);
    }
    return d;
  }

  /** A shortest move sequence from a state within the radius to solved. */
  pathHome(state: CubeState): Move[] {
    const path: Move[] = [];
    let s = state;
    for (;;) {
      const entry = this.byKey.get(stateKey(s));
      if (entry === undefined) throw new RangeError('the state lies outside the perimeter');
      if (entry.home === undefined) return path;
      path.push(entry.home);
      s = s.apply(entry.home);
    }
  }
}

/** Builds the reduced diagram bottom-up, sharing nodes with equal levels and equal successors. */
function buildDiagram(components: StateComponent[], states: CubeState[]): StateDiagram {
  const level: number[] = [-1, -1];
  const next: Int32Array[] = [new Int32Array(0), new Int32Array(0)];
  const unique = new Map<string, number>();
  const rows = states.map((s) => components.map((c) => componentValue(s, c)));
  const build = (depth: number, members: number[][]): number => {
    if (depth === components.length) return TRUE_NODE;
    const byValue = new Map<number, number[][]>();
    for (const r of members) {
      const v = r[depth]!;
      const group = byValue.get(v);
      if (group === undefined) byValue.set(v, [r]);
      else group.push(r);
    }
    const out = new Int32Array(DOMAIN[components[depth]!.kind]);
    for (const [v, group] of byValue) out[v] = build(depth + 1, group);
    const key = `${depth}|${out.join(',')}`;
    let id = unique.get(key);
    if (id === undefined) {
      id = level.length;
      unique.set(key, id);
      level.push(depth);
      next.push(out);
    }
    return id;
  };
  const root = build(0, rows);
  // Renumber so that the root is node 2 and children come after parents.
  const order: number[] = [];
  const seen = new Set<number>([FALSE_NODE, TRUE_NODE]);
  const visit = (n: number): void => {
    if (seen.has(n)) return;
    seen.add(n);
    order.push(n);
    for (const c of next[n]!) visit(c);
  };
  visit(root);
  const id = new Map<number, number>([
    [FALSE_NODE, FALSE_NODE],
    [TRUE_NODE, TRUE_NODE],
  ]);
  order.forEach((n, i) => id.set(n, i + 2));
  return {
    components,
    level: [-1, -1, ...order.map((n) => level[n]!)],
    next: [new Int32Array(0), new Int32Array(0), ...order.map((n) => next[n]!.map((c) => id.get(c)!))],
  };
}
