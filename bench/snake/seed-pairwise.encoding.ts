/*
 * The seed's Snake formulation, rebuilt for comparison only (any order): horizon T means "every
 * apple eaten at step T" with the snake moving at every step, no pruning of head cells.
 * C = W x H cells, P apples, L0 the start length, Lmax = L0 + P.
 * Variables: head(x,y,t) for every cell and step: C (T+1);  eaten(a,t): P (T+1).
 * Clauses:
 *   exactly one head per step: one clause of C literals and C(C-1)/2 pairwise binary clauses per
 *   step, (T+1) C (C-1) / 2 in all: the O(N^4 T) family;
 *   moves: head(c,t) -> some neighbour at t+1: C T;  start: 1 unit;
 *   eaten(a,t) <-> eaten(a,t-1) or head(apple a, t): 3 P T;  goal: P units;
 *   growth by subsets: for a head at c at t and at t-d (d < Lmax) the snake must be shorter than
 *   d + 1, so for every subset S of d + 1 - L0 apples, one clause "some apple of S is not eaten
 *   by t": C T sum_k C(P, k) ~ C T 2^P clauses (the exponential family).
 */
import { CnfFormula, type Lit, type Model } from '@satfarm/cnf';
import { SnakeGrid, type SnakeInstance, SnakeSimulator, type SnakeSolution } from '@satfarm/games';

/** The seed's formula at horizon `horizon` and a decoder of its models. */
export function encodeSeedPairwise(
  instance: SnakeInstance,
  horizon: number,
): { formula: CnfFormula; decode(model: Model): SnakeSolution } {
  if (instance.order !== 'any') throw new RangeError('the seed baseline covers the any-order variant only');
  const f = new CnfFormula();
  const grid = SnakeGrid.of(instance);
  const T = horizon;
  const P = instance.apples.length;
  const L0 = instance.length;
  const heads = Array.from({ length: T + 1 }, (_, t) =>
    Array.from({ length: grid.size }, (_, c) => f.pool.named('head', ...grid.cell(c), t)),
  );
  const eatens = instance.apples.map((_, a) =>
    Array.from({ length: T + 1 }, (_, t) => f.pool.named('eaten', a, t)),
  );
  const head = (c: number, t: number): Lit => heads[t]![c]!;
  const eaten = (a: number, t: number): Lit => eatens[a]![t]!;
  const cells = Array.from({ length: grid.size }, (_, c) => c);
  const appleCells = instance.apples.map((c) => grid.index(c));
  const body = instance.body.map((c) => grid.index(c));

  f.add([head(body[0]!, 0)]);
  for (let t = 0; t <= T; t++) {
    f.add(cells.map((c) => head(c, t)));
    for (let i = 0; i < grid.size; i++) {
      for (let j = i + 1; j < grid.size; j++) f.add([-head(i, t), -head(j, t)]);
    }
    if (t < T) for (const c of cells) f.add([-head(c, t), ...grid.neighbours(c).map((n) => head(n, t + 1))]);
  }
  for (let a = 0; a < P; a++) {
    f.add([-eaten(a, 0)]);
    for (let t = 1; t <= T; t++) {
      f.add([-eaten(a, t - 1), eaten(a, t)]);
      f.add([-head(appleCells[a]!, t), eaten(a, t)]);
      f.add([-eaten(a, t), eaten(a, t - 1), head(appleCells[a]!, t)]);
    }
    f.add([eaten(a, T)]);
  }
  const subsets = subsetsBySize(P);
  for (let t = 1; t <= T; t++) {
    for (const c of cells) {
      for (let d = 1; d < L0 + P; d++) {
        const s = t - d;
        let before: Lit[];
        if (s >= 0) before = [-head(c, s)];
        else if (body[-s] === c) before = [];
        else continue;
        const k = d + 1 - L0;
        if (k <= 0) {
          f.add([...before, -head(c, t)]);
          continue;
        }
        for (const subset of subsets[k]!) f.add([...before, -head(c, t), ...subset.map((a) => -eaten(a, t))]);
      }
    }
  }
  return {
    formula: f,
    decode(model: Model): SnakeSolution {
      const sim = new SnakeSimulator(instance);
      const path: SnakeSolution['path'] = [grid.cell(sim.head)];
      for (let t = 1; t <= T && !sim.isDone(); t++) {
        const c = cells.find((cell) => model.value(head(cell, t)));
        if (c === undefined) break;
        sim.move(c);
        path.push(grid.cell(c));
      }
      return { path };
    },
  };
}

function subsetsBySize(n: number): number[][][] {
  const bySize: number[][][] = Array.from({ length: n + 1 }, () => []);
  for (let mask = 0; mask < 1 << n; mask++) {
    const members: number[] = [];
    for (let i = 0; i < n; i++) if (mask & (1 << i)) members.push(i);
    bySize[members.length]!.push(members);
  }
  return bySize;
}
