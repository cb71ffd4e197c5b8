import { CubeState, type CubeSize, type Metric, solverMoves } from './cube.model.js';

const cache = new Map<string, number[][]>();

const stateKey = (s: CubeState): string => String.fromCharCode(...s.cp, ...s.co, ...s.ep, ...s.eo);

/**
 * Move windows no shortest plan needs: the minimal sequences (indices into `solverMoves`) of at
 * most `maxLength` moves whose effect a shorter sequence, or one of the same length that comes
 * first in move order, also has. Order sequences by (length, then move by move); the first plan in
 * that order among the shortest contains none of these windows (swapping one for its better twin
 * would give an earlier plan), so forbidding them keeps an optimal plan. "Minimal" means every
 * shorter window inside is needed, so no window repeats the work of another.
 *
 * Length 2 gives "no face twice in a row" and the order of opposite faces; longer windows catch
 * the rest (the 2x2 has 3 of length 3 and many more at 4 and 5, the 3x3 few).
 */
export function redundantMoveWindows(size: CubeSize, metric: Metric, maxLength: number): number[][] {
  const key = `${size}:${metric}:${maxLength}`;
  const hit = cache.get(key);
  if (hit !== undefined) return hit;
  const tables = solverMoves(size, metric).map((m) => CubeState.ofMove(size, m));
  const seen = new Set<string>([stateKey(CubeState.solved(size))]);
  const windows: number[][] = [];
  let survivors: { seq: number[]; state: CubeState }[] = [{ seq: [], state: CubeState.solved(size) }];
  let survivorKeys = new Set<string>(['']);
  for (let len = 1; len <= maxLength; len++) {
    const next: { seq: number[]; state: CubeState }[] = [];
    const nextKeys = new Set<string>();
    for (const { seq, state } of survivors) {
      for (let m = 0; m < tables.length; m++) {
        const w = [...seq, m];
        if (!survivorKeys.has(w.slice(1).join(','))) continue;
        const s = state.compose(tables[m]!);
        const k = stateKey(s);
        if (seen.has(k)) {
          windows.push(w);
        } else {
          seen.add(k);
          next.push({ seq: w, state: s });
          nextKeys.add(w.join(','));
        }
      }
    }
    survivors = next;
    survivorKeys = nextKeys;
  }
  cache.set(key, windows);
  return windows;
}
