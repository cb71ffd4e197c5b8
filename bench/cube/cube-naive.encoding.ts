/*
 * The deliberately naive cube encoding the benchmark compares against: sticker colours, no
 * cubies, no pruning. N = 6 n^2 stickers, M = 18 moves, horizon T.
 * Variables: col(t,i,c) sticker i shows colour c at step t, (T+1) 6N; a(t,m), stop(t), T (M+1).
 * Clauses: start units 6N; exactly one colour per sticker, pairwise, (T+1) N 16;
 *   exactly one action per step, pairwise, T (M+1) M / 2 + T; stop(t) -> stop(t+1), T;
 *   a(t,m) & col(t,i,c) -> col(t+1, target_m(i), c) for every sticker, T M 6N;
 *   stop(t) & col(t,i,c) -> col(t+1,i,c), T 6N; goal: every sticker of a face shows the colour of
 *   its first sticker, 2 * 6 (n^2 - 1) 6.
 */
import { CnfFormula, type Lit, type Model } from '@satfarm/cnf';
import {
  type CubeInstance,
  type CubeSolution,
  type Encoded,
  FaceletGeometry,
  FACES,
  MOVE_NAMES,
  mergeTurns,
  moveName,
  parseMove,
} from '@satfarm/games';

/** The naive sticker-colour encoding of "solved within `horizon` moves" (any of the 18 moves). */
export function encodeCubeNaively(instance: CubeInstance, horizon: number): Encoded<CubeSolution> {
  const g = FaceletGeometry.of(instance.size);
  const f = new CnfFormula();
  const pool = f.pool;
  const col = (t: number, i: number, c: number): Lit => pool.named('col', t, i, c);
  const moves = MOVE_NAMES.map((name) => parseMove(name)!);
  for (let t = 0; t <= horizon; t++) {
    for (let i = 0; i < g.count; i++) {
      const lits = FACES.map((_, c) => col(t, i, c));
      f.add(lits);
      for (let a = 0; a < 6; a++) for (let b = a + 1; b < 6; b++) f.add([-lits[a]!, -lits[b]!]);
    }
  }
  for (let i = 0; i < g.count; i++) {
    const c = FACES.indexOf(instance.facelets[i] as (typeof FACES)[number]);
    f.add([col(0, i, c)]);
  }
  for (let t = 0; t < horizon; t++) {
    const acts = moves.map((m) => pool.named('a', t, moveName(m)));
    const stop = pool.named('stop', t);
    const all = [...acts, stop];
    f.add(all);
    for (let a = 0; a < all.length; a++) for (let b = a + 1; b < all.length; b++) f.add([-all[a]!, -all[b]!]);
    if (t + 1 < horizon) f.add([-stop, pool.named('stop', t + 1)]);
    moves.forEach((m, k) => {
      for (let i = 0; i < g.count; i++) {
        const j = g.target(m.face, m.turns, i);
        for (let c = 0; c < 6; c++) f.add([-acts[k]!, -col(t, i, c), col(t + 1, j, c)]);
      }
    });
    for (let i = 0; i < g.count; i++)
      for (let c = 0; c < 6; c++) f.add([-stop, -col(t, i, c), col(t + 1, i, c)]);
  }
  for (let face = 0; face < 6; face++) {
    const first = face * g.perFace;
    for (let k = 1; k < g.perFace; k++) {
      for (let c = 0; c < 6; c++) {
        f.add([-col(horizon, first, c), col(horizon, first + k, c)]);
        f.add([col(horizon, first, c), -col(horizon, first + k, c)]);
      }
    }
  }
  return {
    formula: f,
    decode: (model: Model) => {
      const steps = [];
      for (let t = 0; t < horizon; t++) {
        const m = moves.find((mv) => model.named(pool, 'a', t, moveName(mv)));
        if (m !== undefined) steps.push(m);
      }
      return { moves: mergeTurns(steps).map(moveName), metric: instance.metric };
    },
  };
}
