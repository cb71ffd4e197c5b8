import { describe, expect, it } from 'vitest';

import {
  arrangements,
  CornerCoordinate,
  CornerTwistCoordinate,
  type CubieCoordinate,
  EDGE_GROUP,
  EdgeGroupCoordinate,
  rankArrangement,
  unrankArrangement,
} from './cube.coordinates.js';
import { generateScramble } from './cube.generate.js';
import { CubeState, type Metric, parseMove, solverMoves } from './cube.model.js';

function scrambled(n: number, seed: number): CubeState {
  return CubeState.solved(3).applyAll(generateScramble(3, n, seed).map((t) => parseMove(t)!));
}

describe(rankArrangement.name, () => {
  it.each([
    [4, 4],
    [6, 3],
    [8, 8],
    [7, 1],
  ])('ranks every arrangement of %i numbers taken %i at a time once, in 0..count-1', (n, k) => {
    const count = arrangements(n, k);
    const seen = new Set<string>();
    for (let r = 0; r < count; r++) {
      const values = unrankArrangement(r, n, k);
      expect(new Set(values).size).toBe(k);
      expect(values.every((v) => v < n)).toBe(true);
      seen.add(values.join(','));
      expect(rankArrangement(values, n)).toBe(r);
    }
    expect(seen.size).toBe(count);
  });

  it('is a bijection on samples of the 665,280 arrangements of 6 of 12 edges', () => {
    expect(arrangements(12, 6)).toBe(665_280);
    for (let r = 0; r < 665_280; r += 997) {
      expect(rankArrangement(unrankArrangement(r, 12, 6), 12)).toBe(r);
    }
    expect(rankArrangement([0, 1, 2, 3, 4, 5], 12)).toBe(0);
    expect(rankArrangement([11, 10, 9, 8, 7, 6], 12)).toBe(665_279);
  });

  it('ranks permutations in Lehmer order', () => {
    expect(rankArrangement([0, 1, 2, 3, 4, 5, 6, 7], 8)).toBe(0);
    expect(rankArrangement([7, 6, 5, 4, 3, 2, 1, 0], 8)).toBe(40_319);
    expect(rankArrangement([1, 0, 2], 3)).toBe(2);
  });
});

describe('cubie coordinates', () => {
  it('count the patterns of the strong tables', () => {
    expect(new CornerCoordinate('htm').count).toBe(88_179_840);
    expect(new EdgeGroupCoordinate('htm', EDGE_GROUP).count).toBe(42_577_920);
    expect(new EdgeGroupCoordinate('qtm', [6, 7, 8, 9, 10, 11]).name).toBe('edges-6-7-8-9-10-11');
    expect(new CornerTwistCoordinate('qtm').moveCount).toBe(12);
  });

  it('refuse an edge group that is empty, repeats an edge or names one past 11', () => {
    expect(() => new EdgeGroupCoordinate('htm', [])).toThrow(/1..8 distinct edges/);
    expect(() => new EdgeGroupCoordinate('htm', [1, 1])).toThrow(/1..8 distinct edges/);
    expect(() => new EdgeGroupCoordinate('htm', [12])).toThrow(/1..8 distinct edges/);
  });

  it('read the corners and edges of an index back', () => {
    const solved = CubeState.solved(3);
    const corners = new CornerCoordinate('htm');
    const edges = new EdgeGroupCoordinate('htm', [8, 3, 5]);
    expect(corners.index(solved)).toBe(0);
    expect(new EdgeGroupCoordinate('htm', [0, 1, 2, 3, 4, 5]).index(solved)).toBe(0);
    expect(Array.from(edges.edges(edges.index(solved)).positions)).toEqual([8, 3, 5]);
    for (let seed = 0; seed < 40; seed++) {
      const state = scrambled(25, seed);
      const c = corners.corners(corners.index(state));
      expect(Array.from(c.cp)).toEqual(Array.from(state.cp));
      expect(Array.from(c.co)).toEqual(Array.from(state.co));
      const e = edges.edges(edges.index(state));
      [8, 3, 5].forEach((cubie, j) => {
        const at = state.ep.indexOf(cubie);
        expect(e.positions[j]).toBe(at);
        expect(e.flips[j]).toBe(state.eo[at]);
      });
    }
  });

  // The move tables must agree with CubeState's moves on every move and many states.
  const coordinates = (metric: Metric): CubieCoordinate[] => [
    new CornerTwistCoordinate(metric),
    new CornerCoordinate(metric),
    new EdgeGroupCoordinate(metric, [0, 5, 7]),
    new EdgeGroupCoordinate(metric, EDGE_GROUP),
  ];
  it.each<Metric>(['htm', 'qtm'])('move tables agree with the cube moves (%s)', (metric) => {
    const moves = solverMoves(3, metric);
    for (const coord of coordinates(metric)) {
      const out = new Uint32Array(coord.moveCount);
      expect(coord.moveCount).toBe(moves.length);
      for (let seed = 0; seed < 60; seed++) {
        const state = scrambled(seed % 30, 1000 + seed);
        coord.successors(coord.index(state), out);
        moves.forEach((m, k) =>
          expect(out[k], `${coord.name} ${seed} ${k}`).toBe(coord.index(state.apply(m))),
        );
      }
    }
  });
});
