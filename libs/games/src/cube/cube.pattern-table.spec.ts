import { describe, expect, it } from 'vitest';

import { CornerTwistCoordinate, type CubieCoordinate, EdgeGroupCoordinate } from './cube.coordinates.js';
import { generateScramble } from './cube.generate.js';
import { PatternDatabase } from './cube.lower-bound.js';
import { CubeState, type Metric, parseMove } from './cube.model.js';
import {
  PackedDistances,
  PatternTable,
  type SearchLevel,
  searchDistances,
  StrongCubeBound,
  strongCubeBound,
} from './cube.pattern-table.js';
import { CubeSymmetry } from './cube.symmetry.js';

/** Every index's distance is one more than its nearest successor's (0 at the start alone). */
function expectConsistent(coord: CubieCoordinate, table: PackedDistances, start: number): void {
  const out = new Uint32Array(coord.moveCount);
  for (let i = 0; i < coord.count; i++) {
    const d = table.get(i);
    coord.successors(i, out);
    const nearest = Math.min(...Array.from(out, (j) => table.get(j)));
    if (i === start) expect(d).toBe(0);
    else expect(d, `index ${i}`).toBe(nearest + 1);
  }
}

describe(searchDistances.name, () => {
  it.each<Metric>(['htm', 'qtm'])(
    'gives the corner twists the distances of the string-keyed search (%s)',
    (metric) => {
      const coord = new CornerTwistCoordinate(metric);
      const table = searchDistances(coord);
      const old = PatternDatabase.toSolved(3, metric, { kind: 'co' });
      const solved = CubeState.solved(3);
      let compared = 0;
      for (const [co, d] of old.entries()) {
        const state = new CubeState(3, solved.cp, co, solved.ep, solved.eo);
        expect(table.get(coord.index(state))).toBe(d);
        compared++;
      }
      expect(compared).toBe(coord.count);
      expect(table.histogram().reduce((a, b) => a + b, 0)).toBe(2187);
      expectConsistent(coord, table, 0);
    },
  );

  it.each<Metric>(['htm', 'qtm'])(
    'finds every pattern of a three-edge group at its distance (%s)',
    (metric) => {
      const coord = new EdgeGroupCoordinate(metric, [1, 6, 10]);
      const levels: SearchLevel[] = [];
      const table = searchDistances(coord, undefined, (l) => levels.push(l));
      const start = coord.index(CubeState.solved(3));
      expectConsistent(coord, table, start);
      expect(levels.reduce((sum, l) => sum + l.found, 0)).toBe(12 * 11 * 10 * 8);
      expect(levels.map((l) => l.depth)).toEqual(levels.map((_, i) => i));
      // The last levels are few patterns among many found: the search turns backwards there.
      expect(levels.at(-1)!.backward).toBe(true);
      expect(levels[1]!.backward).toBe(false);
      // Positions alone (the string-keyed pattern) can only be closer than positions and flips.
      const positionsOnly = PatternDatabase.toSolved(3, metric, { kind: 'ep', cubies: [1, 6, 10] });
      for (let seed = 0; seed < 50; seed++) {
        const state = CubeState.solved(3).applyAll(generateScramble(3, 20, seed).map((m) => parseMove(m)!));
        expect(positionsOnly.distance(state)).toBeLessThanOrEqual(table.get(coord.index(state)));
      }
    },
  );

  it('measures from another start: 0 there, and the distance to solved from solved', () => {
    const coord = new EdgeGroupCoordinate('htm', [2, 3]);
    const state = CubeState.solved(3).applyAll(generateScramble(3, 5, 3).map((m) => parseMove(m)!));
    const toSolved = searchDistances(coord);
    const fromState = searchDistances(coord, coord.index(state));
    expect(fromState.get(coord.index(state))).toBe(0);
    expect(fromState.get(coord.index(CubeState.solved(3)))).toBe(toSolved.get(coord.index(state)));
  });
});

describe(PackedDistances.name, () => {
  it('holds two entries a byte and refuses a buffer of the wrong length', () => {
    const table = new PackedDistances(3, Uint8Array.from([0x21, 0x0e]));
    expect([table.get(0), table.get(1), table.get(2)]).toEqual([1, 2, 14]);
    expect(table.histogram()).toEqual([0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]);
    expect(() => new PackedDistances(5, new Uint8Array(2))).toThrow(/takes 3 bytes/);
  });
});

describe(StrongCubeBound.name, () => {
  it('takes the largest distance of its tables', () => {
    const twist = new CornerTwistCoordinate('htm');
    const edges = new EdgeGroupCoordinate('htm', [0, 1]);
    const bound = new StrongCubeBound('htm', [
      new PatternTable(twist, searchDistances(twist)),
      new PatternTable(edges, searchDistances(edges)),
    ]);
    expect(bound.bytes).toBe(1094 + 264);
    for (let seed = 0; seed < 30; seed++) {
      const state = CubeState.solved(3).applyAll(generateScramble(3, 12, seed).map((m) => parseMove(m)!));
      expect(bound.distance(state)).toBe(Math.max(...bound.tables.map((t) => t.distance(state))));
    }
    expect(() => new PatternTable(twist, new PackedDistances(4, new Uint8Array(2)))).toThrow(/2187 indices/);
    expect(() => strongCubeBound('htm', [])).toThrow(/takes 2 tables/);
  });

  it('reads a table through symmetries: the largest distance of the images, never above the scramble', () => {
    const edges = new EdgeGroupCoordinate('qtm', [0, 8, 9]);
    const distances = searchDistances(edges);
    const symmetries = CubeSymmetry.list().slice(1);
    const plain = new PatternTable(edges, distances);
    const through = new PatternTable(edges, distances, symmetries);
    let gained = 0;
    for (let seed = 0; seed < 40; seed++) {
      const moves = generateScramble(3, 6, seed).map((m) => parseMove(m)!);
      const state = CubeState.solved(3).applyAll(moves);
      const images = symmetries.map((s) => distances.get(edges.index(s.state(state))));
      expect(through.distance(state)).toBe(Math.max(plain.distance(state), ...images));
      const quarterTurns = moves.reduce((n, m) => n + (m.turns === 2 ? 2 : 1), 0);
      expect(through.distance(state)).toBeLessThanOrEqual(quarterTurns);
      if (through.distance(state) > plain.distance(state)) gained++;
    }
    expect(gained).toBeGreaterThan(10);
  });
});
