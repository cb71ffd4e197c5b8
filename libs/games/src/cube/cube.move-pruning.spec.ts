import { describe, expect, it } from 'vitest';

import { CubeState, type CubeSize, type Metric, solverMoves } from './cube.model.js';
import { redundantMoveWindows } from './cube.move-pruning.js';
import { PocketCubeDistances } from './cube.reference.js';

const key = (s: CubeState): string => [...s.cp, ...s.co, ...s.ep, ...s.eo].join(',');

/** Breadth-first search over move sequences that contain no forbidden window: distance per state. */
function prunedDistances(
  size: CubeSize,
  metric: Metric,
  depth: number,
  windows: number[][],
): Map<string, number> {
  const tables = solverMoves(size, metric).map((m) => CubeState.ofMove(size, m));
  const forbidden = new Set(windows.map((w) => w.join(',')));
  const longest = Math.max(...windows.map((w) => w.length));
  const seen = new Map<string, number>([[key(CubeState.solved(size)), 0]]);
  let frontier: { seq: number[]; state: CubeState }[] = [{ seq: [], state: CubeState.solved(size) }];
  for (let d = 1; d <= depth; d++) {
    const next: typeof frontier = [];
    for (const { seq, state } of frontier) {
      for (let m = 0; m < tables.length; m++) {
        const w = [...seq, m];
        let blocked = false;
        for (let len = 2; len <= Math.min(longest, w.length) && !blocked; len++)
          blocked = forbidden.has(w.slice(-len).join(','));
        if (blocked) continue;
        const s = state.compose(tables[m]!);
        if (!seen.has(key(s))) seen.set(key(s), d);
        next.push({ seq: w.slice(-(longest - 1)), state: s });
      }
    }
    frontier = next;
  }
  return seen;
}

describe(redundantMoveWindows.name, () => {
  it.each<[Metric, number, number]>([
    ['htm', 5, 6],
    ['qtm', 6, 6],
  ])(
    '2x2 %s: sequences free of the windows still reach every state within %i at its exact distance',
    (metric, window, depth) => {
      const windows = redundantMoveWindows(2, metric, window);
      const reached = prunedDistances(2, metric, depth, windows);
      const histogram = PocketCubeDistances.of(metric)
        .histogram()
        .slice(0, depth + 1);
      const counts = histogram.map((_, d) => [...reached.values()].filter((x) => x === d).length);
      expect(counts).toEqual(histogram);
    },
  );

  it('3x3: forbids a face twice in a row, the wrong order of opposite faces, and nothing that is needed', () => {
    const moves = solverMoves(3, 'htm');
    const windows = redundantMoveWindows(3, 'htm', 4);
    const names = windows.map((w) => w.map((i) => `${moves[i]!.face}${moves[i]!.turns}`).join(' '));
    expect(names).toContain('U1 U1');
    expect(names).toContain('D1 U1');
    expect(names).not.toContain('U1 D1');
    expect(windows.filter((w) => w.length === 2)).toHaveLength(6 * 9 + 3 * 9);
    const reached = prunedDistances(3, 'htm', 3, windows);
    expect([0, 1, 2, 3].map((d) => [...reached.values()].filter((x) => x === d).length)).toEqual([
      1, 18, 243, 3240,
    ]);
  });
});
