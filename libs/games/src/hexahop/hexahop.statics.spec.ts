import { describe, expect, it } from 'vitest';

import { cellIndex } from './hexahop.geometry.js';
import { Tile } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { instanceOfLevel, loadLevelCatalog } from './hexahop.level-catalog.js';
import { HexahopStatics, rayTree } from './hexahop.statics.js';

const at = cellIndex;
const sut = (
  rows: string[],
  start: [number, number],
  items: [number, number, string][] = [],
): HexahopStatics => new HexahopStatics(parseHexahopInstance({ map: rows, start, items }));

describe(HexahopStatics.name, () => {
  it('stops at spinners side by side the player reaches, which of the real levels only Rolling Hexagons has', () => {
    // Maps drawn by hand: see the parse spec (refused when reached, read when across the water).
    const rolling = loadLevelCatalog()
      .filter((entry) => new HexahopStatics(instanceOfLevel(entry)).rollingSpinners)
      .map((entry) => entry.name);
    expect(rolling).toEqual(['Rolling Hexagons']);
  });

  it('knows a green becomes water only a step after the player can first stand on it', () => {
    const st = sut(['ogg'], [0, 0]);
    expect(st.kinds(at(2, 0))).toEqual([Tile.Water, Tile.Green]);
    expect(st.firstArrival(at(2, 0))).toBe(2);
    expect(st.earliestOf(at(2, 0), Tile.Water)).toBe(3);
    expect(st.kinds(at(0, 0))).toEqual([Tile.Normal]);
  });

  it('lets a spinner the player can reach carry its neighbours round it', () => {
    const st = sut(['.....', '..g..', '.oS..', '.....'], [1, 2]);
    expect(st.may(at(3, 1), Tile.Green)).toBe(true);
    expect(st.may(at(3, 1), Tile.Normal)).toBe(true);
    expect(st.spun.has(at(2, 3))).toBe(true);
  });

  it('counts a boat cell as landed on though the boat floats away at once, and the boat rests only next to land', () => {
    const st = sut(['.......', '.oP..go', '.......'], [1, 1]);
    expect(st.firstLanding(at(2, 1))).toBe(1);
    expect(st.may(at(4, 1), Tile.Boat)).toBe(true);
    expect(st.may(at(3, 0), Tile.Boat)).toBe(false);
    expect(st.firstArrival(at(4, 1))).toBe(1);
  });

  it('marks what a laser may destroy, but not the ice that splits its beams', () => {
    const st = sut(['......', '.oL.I.', '.g....', '.o..g.'], [1, 1]);
    expect(st.laserHit.has(at(4, 3))).toBe(true);
    expect(st.may(at(4, 1), Tile.Water)).toBe(false);
  });

  it('tells when one shot may hit two neighbouring lasers', () => {
    const jumps: [number, number, string][] = [[4, 2, 'jump']];
    expect(
      sut(['......', '.ooIL.', '.LLLg.', '.g.gI.', '..o.L.', '......'], [1, 1], jumps).laserOrderMatters(),
    ).toBe(true);
    expect(sut(['......', '.oL.L.', '.g.gg.', '.o....'], [1, 1]).laserOrderMatters()).toBe(false);
  });
});

describe(rayTree.name, () => {
  it('lists the beams of a shot in the game order: the six directions, and at ice the clockwise turn first', () => {
    const st = sut(['......', '.oL.I.', '.g....', '.o..g.'], [1, 1]);
    const hits = rayTree(at(2, 1), (c) => st.kinds(c));
    const ice = hits.find((h) => h.cell === at(4, 1))!;
    expect(ice.dir).toBe(2);
    const children = hits.filter((h) => h.parent === ice.node);
    expect(children.map((h) => h.dir)).toEqual([3]);
    expect(children[0]!.cell).toBe(at(4, 3));
    expect(children[0]!.over).toEqual([at(4, 2)]);
    const nodes = hits.map((h) => h.node);
    expect(nodes).toEqual([...nodes].sort((a, b) => a - b));
    for (const h of hits) if (h.parent !== undefined) expect(h.parent).toBeLessThan(h.node);
  });
});
