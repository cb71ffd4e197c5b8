import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';

import { type CubeState } from './cube.model.js';
import { FALSE_NODE, GoalPerimeter, type StateDiagram, TRUE_NODE } from './cube.perimeter.js';
import { PocketCubeDistances } from './cube.reference.js';

function accepts(d: StateDiagram, s: CubeState): boolean {
  let node = 2;
  while (node !== TRUE_NODE && node !== FALSE_NODE) {
    const c = d.components[d.level[node]!]!;
    const value =
      c.kind === 'cp'
        ? s.cp[c.position]!
        : c.kind === 'co'
          ? s.co[c.position]!
          : c.kind === 'ep'
            ? s.ep[c.position]!
            : s.eo[c.position]!;
    node = d.next[node]![value]!;
  }
  return node === TRUE_NODE;
}

describe(GoalPerimeter.name, () => {
  it('holds the 2x2 states within its radius at their exact distance, with a shortest way home', () => {
    const table = PocketCubeDistances.of('htm');
    const perimeter = GoalPerimeter.of(2, 'htm', 4);
    expect(perimeter.count).toBe(1 + 9 + 54 + 321 + 1847);
    for (const s of perimeter.states()) {
      const d = table.distance(s);
      expect(perimeter.distance(s)).toBe(d);
      expect(perimeter.pathHome(s)).toHaveLength(d);
      expect(s.applyAll(perimeter.pathHome(s)).isSolved()).toBe(true);
    }
  });

  it('builds a decision diagram that accepts exactly its members', () => {
    const table = PocketCubeDistances.of('htm');
    const perimeter = GoalPerimeter.of(2, 'htm', 5);
    const diagram = perimeter.diagram(4);
    const rng = xoroshiro128plus(8);
    for (let i = 0; i < 2000; i++) {
      const s = table.stateAt(unsafeUniformIntDistribution(0, 3_674_159, rng));
      expect(accepts(diagram, s)).toBe(table.distance(s) <= 4);
    }
    for (const s of perimeter.states(4)) expect(accepts(diagram, s)).toBe(true);
    for (const s of perimeter.states(5))
      if (perimeter.distance(s) === 5) expect(accepts(diagram, s)).toBe(false);
  });
});
