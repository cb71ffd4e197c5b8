import { describe, expect, it } from 'vitest';

import { hexahopDefaultMaxHorizon, hexahopLowerBound } from './hexahop.lower-bound.js';
import { HexahopSimulator } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';

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

  it('caps the horizon at the par score of a real level, never below the bound', () => {
    const instance = parseHexahopInstance({ level: 'Hive' });
    expect(hexahopDefaultMaxHorizon(instance)).toBe(Math.max(instance.par!, sut(instance)));
  });
});
