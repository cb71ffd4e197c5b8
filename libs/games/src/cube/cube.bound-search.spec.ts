import { describe, expect, it } from 'vitest';

import { searchLowerBound, strongSearchPatterns } from './cube.bound-search.js';
import { CornerTwistCoordinate, EdgeGroupCoordinate } from './cube.coordinates.js';
import { CubeState, type Metric, type Move, solverMoves } from './cube.model.js';
import { PatternTable, searchDistances, StrongCubeBound } from './cube.pattern-table.js';
import { CubeSymmetry } from './cube.symmetry.js';

/** Small tables (corner twists, a pair of edges read through every symmetry): quick to build. */
function smallBound(metric: Metric): StrongCubeBound {
  const twist = new CornerTwistCoordinate(metric);
  const edges = new EdgeGroupCoordinate(metric, [0, 1]);
  return new StrongCubeBound(metric, [
    new PatternTable(twist, searchDistances(twist)),
    new PatternTable(edges, searchDistances(edges), CubeSymmetry.list().slice(1)),
  ]);
}

/** `length` random moves of the metric (quarter turns only in qtm), from a seeded generator. */
function scrambled(metric: Metric, length: number, seed: number): CubeState {
  const moves = solverMoves(3, metric);
  let x = seed * 2654435761 + 1;
  const picked: Move[] = [];
  for (let i = 0; i < length; i++) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    picked.push(moves[(x >>> 16) % moves.length]!);
  }
  return CubeState.solved(3).applyAll(picked);
}

/** The shortest solution by trying every move sequence up to `depth` (no pruning); undefined if longer. */
function bruteForceDistance(state: CubeState, metric: Metric, depth: number): number | undefined {
  const moves = solverMoves(3, metric);
  let level: CubeState[] = [state];
  for (let d = 0; d <= depth; d++) {
    if (level.some((s) => s.isSolved())) return d;
    if (d === depth) break;
    level = level.flatMap((s) => moves.map((m: Move) => s.apply(m)));
  }
  return undefined;
}

describe(searchLowerBound.name, () => {
  it.each<[Metric, number]>([
    ['htm', 4],
    ['qtm', 4],
  ])('finds the exact distance of short %s scrambles, as trying every sequence does', (metric, depth) => {
    const patterns = strongSearchPatterns(smallBound(metric));
    for (let seed = 0; seed < 24; seed++) {
      const length = 1 + (seed % (depth + 1));
      const state = scrambled(metric, length, 900 + seed);
      const brute = bruteForceDistance(state, metric, depth) ?? depth + 1;
      const found = searchLowerBound(state, metric, patterns, { start: 0, nodeBudget: 10_000_000 });
      expect(found, `seed ${seed}`).toMatchObject({ bound: brute, exact: true });
      // Its plan is a solution of that many moves.
      expect(found.plan).toHaveLength(brute);
      expect(state.applyAll(found.plan!).isSolved()).toBe(true);
    }
  });

  it('never passes the length of a known solution, and stops at its node budget', () => {
    for (const metric of ['htm', 'qtm'] as const) {
      const patterns = strongSearchPatterns(smallBound(metric));
      for (let seed = 0; seed < 6; seed++) {
        const state = scrambled(metric, 9, 40 + seed);
        const quick = searchLowerBound(state, metric, patterns, { start: 0, nodeBudget: 2_000 });
        expect(quick.nodes).toBeLessThanOrEqual(2_001);
        expect(quick.bound).toBeLessThanOrEqual(9);
        const deeper = searchLowerBound(state, metric, patterns, { start: 0, nodeBudget: 200_000 });
        expect(deeper.bound).toBeGreaterThanOrEqual(quick.bound);
        expect(deeper.bound).toBeLessThanOrEqual(9);
        // In the quarter-turn metric every length keeps the corners' parity: 9 moves, odd.
        if (metric === 'qtm') expect(deeper.bound % 2).toBe(1);
      }
    }
  });

  it('starts from the caller bound and never reports below it', () => {
    const patterns = strongSearchPatterns(smallBound('htm'));
    const state = scrambled('htm', 3, 5);
    expect(searchLowerBound(state, 'htm', patterns, { start: 3, nodeBudget: 0 }).bound).toBe(3);
    expect(searchLowerBound(CubeState.solved(3), 'htm', patterns, { start: 0, nodeBudget: 0 })).toMatchObject(
      {
        bound: 0,
        exact: true,
      },
    );
  });
});

describe(strongSearchPatterns.name, () => {
  it('keeps one reading per set of edges, and each follows the moves as the state seen through it does', () => {
    const bound = smallBound('htm');
    const patterns = strongSearchPatterns(bound);
    // Corners, then the 66 pairs of twelve edges the 48 symmetries map the UR-UF pair onto:
    // the 24 pairs of edges sharing a corner.
    expect(patterns.length).toBe(1 + 24);
    expect(strongSearchPatterns(bound, 3).length).toBe(1 + 3);
    for (const symmetry of CubeSymmetry.list()) {
      for (let seed = 0; seed < 3; seed++) {
        const state = scrambled('htm', 7, seed);
        for (const move of solverMoves(3, 'htm'))
          expect(
            symmetry.state(state.apply(move)).equals(symmetry.state(state).apply(symmetry.move(move))),
          ).toBe(true);
      }
    }
  });
});
