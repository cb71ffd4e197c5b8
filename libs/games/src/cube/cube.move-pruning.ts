import { CubeState, type CubeSize, type Metric, solverMoves } from './cube.model.js';

const cache = new Map<string, number[][]>();

const stateKey = (s: CubeState): string => String.fromCharCode(...s.cp, ...s.co, ...s.ep, ...s.eo);

/**
 * Move windows no shortest plan needs: the minimal sequences (indices into `solverMoves`) of at
 * most `maxLength` moves whose effect a shorter sequence, or an earlier one of the same length,
 * also has. The first shortest plan in move order contains none, so forbidding them keeps an
 * optimal plan (docs/games.md#cube).
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
