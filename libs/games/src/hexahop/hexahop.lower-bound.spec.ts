import { describe, expect, it } from 'vitest';

import { hexahopDefaultMaxHorizon, hexahopLowerBound } from './hexahop.lower-bound.js';
import { HexahopSimulator } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { seededInts } from './hexahop.random-maps.testing.js';
import { shortestWin } from './hexahop.shortest-win.testing.js';

const sut = hexahopLowerBound;

describe(hexahopLowerBound.name, () => {
  it('counts green tiles and walls, plus the first move off a non-green start', () => {
    expect(sut(parseHexahopInstance({ map: ['oggG'], start: [0, 0] }))).toBe(4);
    expect(sut(parseHexahopInstance({ map: ['gggo'], start: [0, 0] }))).toBe(3);
  });

  it('adds the green a blue start cell becomes', () => {
    expect(sut(parseHexahopInstance({ map: ['bgg'], start: [0, 0] }))).toBe(4);
  });

  it('is reached by a straight line of green tiles', () => {
    const instance = parseHexahopInstance({ map: ['ogggo'], start: [0, 0] });
    const sim = new HexahopSimulator(instance);
    for (let i = 0; i < 4; i++) sim.move('SE');
    expect(sim.won).toBe(true);
    expect(sut(instance)).toBe(4);
  });

  it('needs at least the moves to reach the farthest green and step off it', () => {
    const instance = parseHexahopInstance({ map: ['oooooogo'], start: [0, 0] });
    expect(sut(instance)).toBe(7);
    const sim = new HexahopSimulator(instance);
    for (let i = 0; i < 7; i++) sim.move('SE');
    expect(sim.won).toBe(true);
  });

  it('counts a green a laser may shoot as gone once that laser is reached', () => {
    // The laser at (5, 0), reached in five moves, shoots the green next to it.
    const instance = parseHexahopInstance({ map: ['oooooLg'], start: [0, 0] });
    expect(sut(instance)).toBe(5);
    const sim = new HexahopSimulator(instance);
    for (let i = 0; i < 5; i++) sim.move('SE');
    expect(sim.won).toBe(true);
  });

  it('walks through every green: the floor between far-apart greens counts', () => {
    // Greens at both ends of a corridor, the start in the middle: 3 moves to one end, 6 back to
    // the other, one off it. Counting greens alone gives 3.
    const instance = parseHexahopInstance({ map: ['goooooog'], start: [3, 0] });
    const best = shortestWin(instance)!;
    expect(best).toHaveLength(3 + 7 + 1);
    expect(sut(instance)).toBe(best.length);
  });

  it('takes the best order of the greens, not the nearest first', () => {
    // The nearest green first (1 move west) costs a walk back east: the best order goes east
    // first only when that is shorter; the bound must equal the search either way.
    const instance = parseHexahopInstance({ map: ['.gooooog', 'gooo....'], start: [2, 0] });
    expect(sut(instance)).toBe(shortestWin(instance)!.length);
  });

  it('never exceeds the fewest moves the search finds, on random small maps of every tile type', () => {
    const random = seededInts(20261124);
    const chars = 'gggggooooGbBTTI#lHSLUP..i';
    let compared = 0;
    let tight = 0;
    for (let n = 0; n < 400 && compared < 60; n++) {
      const width = 3 + random(3);
      const inner = Array.from({ length: 2 + random(2) }, () =>
        Array.from({ length: width }, () => chars[random(chars.length)]).join(''),
      );
      const [sx, sy] = [random(width), random(inner.length)];
      inner[sy] = `${inner[sy]!.slice(0, sx)}o${inner[sy]!.slice(sx + 1)}`;
      const rows = ['.'.repeat(width + 2), ...inner.map((r) => `.${r}.`), '.'.repeat(width + 2)];
      const items: [number, number, string][] = random(3) === 0 ? [[1 + random(width), 1, 'jump']] : [];
      let instance;
      let best;
      try {
        instance = parseHexahopInstance({ map: rows, start: [sx + 1, sy + 1], items });
        best = shortestWin(instance, 50_000);
      } catch {
        continue; // unsupported arrangements and maps too large to search
      }
      if (best === undefined) continue;
      compared++;
      const bound = sut(instance);
      expect(bound, `${JSON.stringify(rows)} from (${sx + 1}, ${sy + 1})`).toBeLessThanOrEqual(best.length);
      if (bound === best.length) tight++;
    }
    expect(compared).toBeGreaterThanOrEqual(40);
    expect(tight).toBeGreaterThan(0);
  });

  it('caps the horizon at the par score of a real level, never below the bound', () => {
    const instance = parseHexahopInstance({ level: 'Hive' });
    expect(hexahopDefaultMaxHorizon(instance)).toBe(Math.max(instance.par!, sut(instance)));
  });
});
