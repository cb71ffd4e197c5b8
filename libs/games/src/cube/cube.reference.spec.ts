import { describe, expect, it } from 'vitest';

import { generateScramble } from './cube.generate.js';
import { CubeState, parseMove } from './cube.model.js';
import { parseCubeInstance } from './cube.parse.js';
import { PocketCubeDistances, POCKET_STATES } from './cube.reference.js';

describe(PocketCubeDistances.name, () => {
  it("reproduces the published 2x2 distance counts in the half-turn metric (God's number 11)", () => {
    const h = PocketCubeDistances.of('htm').histogram();
    expect(h).toEqual([1, 9, 54, 321, 1847, 9992, 50136, 227536, 870072, 1887748, 623800, 2644]);
    expect(h.reduce((a, b) => a + b, 0)).toBe(POCKET_STATES);
  });

  it("reproduces the published 2x2 distance counts in the quarter-turn metric (God's number 14)", () => {
    const h = PocketCubeDistances.of('qtm').histogram();
    expect(h).toEqual([
      1, 6, 27, 120, 534, 2256, 8969, 33058, 114149, 360508, 930588, 1350852, 782536, 90280, 276,
    ]);
  });

  it('agrees with short scrambles: never more than the scramble length, and round-trips its indices', () => {
    const table = PocketCubeDistances.of('htm');
    for (let seed = 0; seed < 20; seed++) {
      const scramble = generateScramble(2, 4, seed);
      const inst = parseCubeInstance({ size: 2, scramble: scramble.join(' ') });
      const state = CubeState.fromFacelets(2, inst.facelets);
      expect(table.distance(state)).toBeLessThanOrEqual(4);
    }
    const index = table.indicesAt(11)[7]!;
    const s = table.stateAt(index);
    expect(table.distance(s)).toBe(11);
    expect(table.distance(s.apply(parseMove('R')!))).toBe(10);
  });
});
