import { describe, expect, it } from 'vitest';

import { searchWinWithin } from './hexahop.bounded-search.js';
import { cellIndex, MAP_SIZE, type MoveName } from './hexahop.geometry.js';
import { instanceOfLevel, loadLevelCatalog } from './hexahop.level-catalog.js';
import { movesLeftBound } from './hexahop.lower-bound.js';
import { type HexahopInstance, HexahopSimulator, Tile } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { randomFramedMap, seededInts } from './hexahop.random-maps.testing.js';
import { searchShortestWin } from './hexahop.search.js';
import { staticsOf } from './hexahop.statics.js';
import { verifyHexahop } from './hexahop.verify.js';

const sut = searchWinWithin;
const level = (name: string) => instanceOfLevel(loadLevelCatalog().find((e) => e.name === name)!);
const map = (rows: string[], start: [number, number]): HexahopInstance =>
  parseHexahopInstance({ map: rows, start });

/** Random framed maps of `chars` with their fewest moves by the plain search (winnable ones only). */
function* winnableRandomMaps(seed: number, chars: string, count: number) {
  const random = seededInts(seed);
  for (let found = 0; found < count;) {
    const { rows, start } = randomFramedMap(random, chars, 3 + random(3), 2 + random(2));
    let instance: HexahopInstance;
    try {
      instance = map(rows, start);
    } catch {
      continue;
    }
    // Spinners side by side may roll tiles anywhere (the search refuses those; see below).
    if (staticsOf(instance).unbounded) continue;
    const outcome = searchShortestWin(instance, 50_000);
    if (outcome.capped || outcome.plan === undefined) continue;
    found++;
    yield { instance, best: outcome.plan, where: `${JSON.stringify(rows)} from (${start.join(', ')})` };
  }
}

/** The states a plan passes through, each with the moves the plan still makes from it. */
function* statesAlong(instance: HexahopInstance, plan: MoveName[]) {
  const sim = new HexahopSimulator(instance);
  for (let i = 0; i < plan.length; i++) {
    yield { sim, left: plan.length - i };
    sim.move(plan[i]!);
  }
}

function expectShortest(instance: HexahopInstance, best: MoveName[], where: string): void {
  const found = sut(instance, best.length);
  expect(found.plan, where).toHaveLength(best.length);
  expect(verifyHexahop(instance, { moves: found.plan!, score: found.score! }, best.length).ok, where).toBe(
    true,
  );
  const below = sut(instance, best.length - 1);
  expect(below.plan, where).toBeUndefined();
  expect(below.capped, where).toBe(false);
  expect([found.lower, below.lower], where).toEqual([best.length, best.length]);
}

describe(searchWinWithin.name, () => {
  it('finds the fewest moves of random maps with lasers, spinners, boats and walls, and none below', () => {
    // Lasers shooting greens (and each other) and blue tiles turning green are where the bound
    // could undercount the moves left; spinners and boats move tiles the states are keyed on.
    let pruned = 0;
    for (const { instance, best, where } of winnableRandomMaps(20261127, 'gggggoo..LLLSPTbBG#', 40)) {
      expectShortest(instance, best, where);
      const h = movesLeftBound(staticsOf(instance));
      for (const { sim, left } of statesAlong(instance, best))
        expect(h(sim), where).toBeLessThanOrEqual(left);
      if (sut(instance, best.length).states < searchShortestWin(instance, 50_000).states) pruned++;
    }
    expect(pruned).toBeGreaterThan(20);
  });

  it('agrees with the plain search on real levels with lasers, keeping fewer states', () => {
    for (const [name, optimum] of [
      ['Laser Tiles', 26],
      ['Deadly Snowflake', 22],
    ] as const) {
      const instance = level(name);
      const plain = searchShortestWin(instance, 1_000_000);
      expect(plain.plan, name).toHaveLength(optimum);
      expectShortest(instance, plain.plan!, name);
      expect(sut(instance, optimum).states, name).toBeLessThan(plain.states);
    }
  });

  it('says how many states each depth kept and stops at the state cap', () => {
    const instance = level('Laser Tiles');
    const layers: number[] = [];
    const whole = sut(instance, 25, { onLayer: (_depth, layer) => layers.push(layer) });
    expect(whole.layers).toEqual([1, ...layers]);
    expect(whole.layers.reduce((a, b) => a + b)).toBe(whole.states);
    const capped = sut(instance, 25, { maxStates: 1000 });
    expect(capped).toMatchObject({ capped: true, states: 1000 });
    expect(capped.plan).toBeUndefined();
    // The depths it played out whole, as the uncapped search kept them.
    expect(capped.layers).toEqual(whole.layers.slice(0, capped.layers.length));
    expect(capped.lower).toBe(capped.layers.length);
    expect(capped.layers.reduce((a, b) => a + b)).toBeLessThan(1000);
  });

  it('bounds nothing beyond one move where a spinner on the edge of the map may turn a green off it', () => {
    // The parser refuses such maps; an instance built by hand is still searched soundly.
    const tiles = new Array<number>(MAP_SIZE * MAP_SIZE).fill(Tile.Water);
    const put = (x: number, y: number, t: number): void => void (tiles[cellIndex(x, y)] = t);
    put(0, 1, Tile.Spinner);
    for (const [x, y] of [
      [0, 0],
      [0, 2],
      [1, 1],
      [1, 2],
    ] as const)
      put(x, y, Tile.Green);
    put(1, 0, Tile.Normal);
    const edge: HexahopInstance = { ...map(['og'], [0, 0]), tiles, start: [1, 0] };
    expect(movesLeftBound(staticsOf(edge))(new HexahopSimulator(edge))).toBe(1);
    const inner = map(['......', '..g...', '.oSg..', '..gg..', '......'], [1, 2]);
    expect(movesLeftBound(staticsOf(inner))(new HexahopSimulator(inner))).toBe(5);
  });

  it('refuses a level with items, whose states it does not key, and one whose tiles may spread', () => {
    const instance = parseHexahopInstance({ map: ['ob.o', '.ggg'], start: [0, 0], items: [[1, 0, 'jump']] });
    expect(() => sut(instance, 10)).toThrow(/items/);
    const rolling = map(['......', '.oSS..', '..gg..', '......'], [1, 1]);
    expect(staticsOf(rolling).unbounded).toBe(true);
    expect(() => sut(rolling, 10)).toThrow(/spread/);
  });
});
