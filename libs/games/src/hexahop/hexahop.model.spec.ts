import { describe, expect, it } from 'vitest';

import { cellIndex } from './hexahop.geometry.js';
import { instanceOfLevel, loadLevelCatalog } from './hexahop.level-catalog.js';
import { type HexahopInstance, HexahopSimulator, Item, Tile } from './hexahop.model.js';
import { tileOfChar } from './hexahop.map-text.js';

/** A map by hand (row y holds the cells (x, y)), with no validation: any tile allowed. */
function map(
  rows: string[],
  start: [number, number],
  items: [number, number, number][] = [],
): HexahopInstance {
  const tiles = new Array<number>(900).fill(Tile.Water);
  rows.forEach((row, y) => [...row].forEach((ch, x) => (tiles[cellIndex(x, y)] = tileOfChar(ch)!)));
  const itemGrid = new Array<number>(900).fill(Item.None);
  for (const [x, y, kind] of items) itemGrid[cellIndex(x, y)] = kind;
  return { name: 'test', tiles, items: itemGrid, start };
}

function play(instance: HexahopInstance, moves: string[]): HexahopSimulator {
  const sut = new HexahopSimulator(instance);
  for (const m of moves) expect(sut.move(m), `move ${m}`).toEqual({ ok: true });
  return sut;
}

const at = (sim: HexahopSimulator, x: number, y: number): number => sim.tile(cellIndex(x, y));

describe(HexahopSimulator.name, () => {
  it('moves along the six axial directions', () => {
    const sut = play(map(['ooo', 'ooo', 'ooo'], [1, 1]), ['N']);
    expect(sut.position).toEqual([1, 0]);
    for (const [m, pos] of [
      ['S', [1, 1]],
      ['NE', [2, 0]],
      ['SW', [1, 1]],
      ['SE', [2, 1]],
      ['NW', [1, 1]],
    ] as const) {
      sut.move(m);
      expect(sut.position).toEqual(pos);
    }
  });

  it('turns a green tile into water when it is left, and wins when the last one is left', () => {
    const sut = play(map(['oggo'], [0, 0]), ['SE', 'SE']);
    expect(at(sut, 1, 0)).toBe(Tile.Water);
    expect(sut.won).toBe(false);
    sut.move('SE');
    expect(sut.won).toBe(true);
    expect(sut.move('NW').ok).toBe(false);
  });

  it('refuses moves onto water, and onto raised tiles unless standing on one; refusals cost nothing', () => {
    const sut = new HexahopSimulator(map(['o#g', '.g.'], [0, 0]));
    expect(sut.move('N').ok).toBe(false);
    expect(sut.move('SE').ok).toBe(false);
    expect(sut.score).toBe(0);
    const high = play(map(['#Gg'], [0, 0]), ['SE']);
    expect(high.position).toEqual([1, 0]);
  });

  it('turns a left blue tile green (+10) and a left blue wall into a green wall (+10)', () => {
    const sut = play(map(['bgo', 'B..', 'g..'], [0, 0]), ['SE']);
    expect(at(sut, 0, 0)).toBe(Tile.Green);
    expect(sut.score).toBe(11);
    const wall = play(map(['#Bog'], [0, 0]), ['SE', 'SE']);
    expect(at(wall, 1, 0)).toBe(Tile.GreenWall);
    expect(wall.score).toBe(12);
  });

  it('lowers green walls into green tiles once no green tile is left, and wins only after them', () => {
    const sut = play(map(['ogo', '.Go'], [0, 0]), ['SE', 'SE']);
    expect(at(sut, 1, 1)).toBe(Tile.Green);
    expect(sut.won).toBe(false);
    sut.move('SW');
    sut.move('NE');
    expect(sut.won).toBe(true);
  });

  it('lowers blue walls into blue tiles once no blue tile is left', () => {
    const sut = play(map(['obo', '.Bg'], [0, 0]), ['SE']);
    expect(at(sut, 1, 1)).toBe(Tile.BlueWall);
    sut.move('SE');
    expect(at(sut, 1, 1)).toBe(Tile.Blue);
  });

  it('throws the player two cells on from a trampoline, one when the second is raised, none when the first is', () => {
    expect(play(map(['oTgog'], [0, 0]), ['SE']).position).toEqual([3, 0]);
    expect(play(map(['oTg#g'], [0, 0]), ['SE']).position).toEqual([2, 0]);
    expect(play(map(['oT#og'], [0, 0]), ['SE']).position).toEqual([1, 0]);
  });

  it('throws a player who started on a raised tile over walls, onto raised tiles', () => {
    expect(play(map(['#T##g'], [0, 0]), ['SE']).position).toEqual([3, 0]);
  });

  it('chains trampolines, and drowns the player thrown into water', () => {
    expect(play(map(['oT.T.og'], [0, 0]), ['SE']).position).toEqual([5, 0]);
    const sut = play(map(['oT.', '..g'], [0, 0]), ['SE']);
    expect(sut.dead).toBe(true);
  });

  it('loses a won level when the winning move drowns the player', () => {
    const sut = play(map(['gT.'], [0, 0]), ['SE']);
    expect(sut.dead).toBe(true);
    expect(sut.won).toBe(false);
  });

  it('toggles lifts under the player: a lowered lift rises, a raised one lowers', () => {
    const sut = play(map(['olog'], [0, 0]), ['SE']);
    expect(at(sut, 1, 0)).toBe(Tile.LiftUp);
    expect(sut.move('SE').ok).toBe(true);
    expect(sut.move('NW').ok).toBe(false);
    const down = play(map(['#Hog'], [0, 0]), ['SE']);
    expect(at(down, 1, 0)).toBe(Tile.LiftDown);
  });

  it('slides the player over ice until a tile that is not ice, stopping before raised tiles', () => {
    expect(play(map(['oIIog'], [0, 0]), ['SE']).position).toEqual([3, 0]);
    expect(play(map(['oII#g'], [0, 0]), ['SE']).position).toEqual([2, 0]);
    expect(play(map(['oI.g'], [0, 0]), ['SE']).dead).toBe(true);
  });

  it('spends an anti-ice item to de-ice ice, which later turns blue when left', () => {
    const sut = play(map(['oIog'], [0, 0], [[0, 0, Item.AntiIce]]), []);
    sut.move('SE');
    expect(sut.position).toEqual([2, 0]);
    const iced = play(map(['ooIog'], [0, 0], [[1, 0, Item.AntiIce]]), ['SE', 'SE']);
    expect(iced.position).toEqual([2, 0]);
    expect(at(iced, 2, 0)).toBe(Tile.DeIced);
    iced.move('SE');
    expect(at(iced, 2, 0)).toBe(Tile.Blue);
  });

  it('jumps in place with a jump item: a green tile underfoot is lost, a blue one turns green', () => {
    expect(new HexahopSimulator(map(['og'], [0, 0])).move('J').ok).toBe(false);
    const sut = play(map(['obg'], [0, 0], [[1, 0, Item.Jump]]), ['SE', 'J']);
    expect(sut.dead).toBe(false);
    expect(at(sut, 1, 0)).toBe(Tile.Green);
    const lost = play(map(['ogb'], [0, 0], [[1, 0, Item.Jump]]), ['SE', 'J']);
    expect(lost.dead).toBe(true);
  });

  it('turns the six neighbours of a spinner one place clockwise', () => {
    const sut = play(map(['.g.', 'oS.', '...'], [0, 1]), ['SE']);
    expect(at(sut, 1, 0)).toBe(Tile.Normal);
    expect(at(sut, 2, 0)).toBe(Tile.Green);
    expect(at(sut, 0, 1)).toBe(Tile.Water);
  });

  it('fires a laser in the direction of travel, destroying the first tile hit (+10 unless green)', () => {
    const sut = play(map(['oL.og', '.....', 'g....'], [0, 0]), ['SE']);
    expect(at(sut, 3, 0)).toBe(Tile.Water);
    expect(at(sut, 4, 0)).toBe(Tile.Green);
    expect(sut.score).toBe(11);
  });

  it('lets a builder raise green walls from neighbouring greens and green tiles from water', () => {
    const sut = play(map(['oUg', '...', 'g..'], [0, 0]), ['SE']);
    expect(at(sut, 2, 0)).toBe(Tile.GreenWall);
    expect(at(sut, 1, 1)).toBe(Tile.Green);
  });

  it('floats a boat over water until land is ahead', () => {
    const sut = play(map(['oP..og'], [0, 0]), ['SE']);
    expect(sut.position).toEqual([3, 0]);
    expect(at(sut, 3, 0)).toBe(Tile.Boat);
    expect(at(sut, 1, 0)).toBe(Tile.Water);
  });

  it('refracts a laser beam at ice into the two directions 60 degrees off; the ice stops it and survives', () => {
    const sut = play(map(['oL.Io', '.....', '...o.'], [0, 0]), ['SE']);
    expect(at(sut, 3, 2)).toBe(Tile.Water);
    expect(at(sut, 3, 0)).toBe(Tile.Ice);
    expect(at(sut, 4, 0)).toBe(Tile.Normal);
    expect(sut.score).toBe(11);
  });

  it('destroys the six neighbours of a laser tile the beam hits (+10 for each that is not green)', () => {
    const sut = play(map(['oL.Lo', '..og.'], [0, 0]), ['SE']);
    for (const [x, y] of [
      [3, 0],
      [4, 0],
      [2, 1],
      [3, 1],
    ] as const)
      expect(at(sut, x, y)).toBe(Tile.Water);
    expect(sut.score).toBe(31);
  });

  it('fires a laser in all six directions on a jump', () => {
    const sut = play(map(['.o..', 'oL.o', '.o.g'], [0, 1], [[1, 1, Item.Jump]]), ['SE']);
    expect(at(sut, 3, 1)).toBe(Tile.Water);
    expect(at(sut, 1, 0)).toBe(Tile.Normal);
    sut.move('J');
    for (const [x, y] of [
      [1, 0],
      [1, 2],
      [0, 1],
    ] as const)
      expect(at(sut, x, y)).toBe(Tile.Water);
    expect(sut.dead).toBe(false);
    expect(sut.score).toBe(42);
  });

  it('picks up an anti-ice item lying on ice before the ice acts, and spends it at once', () => {
    const sut = play(map(['oIog'], [0, 0], [[1, 0, Item.AntiIce]]), ['SE']);
    expect(sut.position).toEqual([1, 0]);
    expect(at(sut, 1, 0)).toBe(Tile.DeIced);
    expect(sut.antiIce).toBe(0);
  });

  it('picks up an item lying on a trampoline the player bounces off', () => {
    const sut = play(map(['oTog'], [0, 0], [[1, 0, Item.Jump]]), ['SE']);
    expect(sut.position).toEqual([3, 0]);
    expect(sut.jumps).toBe(1);
  });

  it('drowns the player on a boat that floats off the map', () => {
    expect(play(map(['oP'], [0, 0]), ['SE']).dead).toBe(true);
  });

  it('leaves the old tile before landing: a builder makes the green tile just left green again', () => {
    const sut = play(map(['gUg'], [0, 0]), ['SE']);
    expect(at(sut, 0, 0)).toBe(Tile.Green);
    expect(at(sut, 2, 0)).toBe(Tile.GreenWall);
    expect(sut.won).toBe(false);
  });

  it('packs a state small and restores it whole: map, items on it and held, player', () => {
    const level = instanceOfLevel(loadLevelCatalog().find((e) => e.name === 'Fetch Quest')!);
    // The first published moves of Fetch Quest take its bottom-most anti-ice item.
    const played = play(level, ['S', 'NW', 'SW', 'SW', 'SE', 'S', 'S']);
    expect(played.antiIce).toBe(1);
    const packed = played.packState();
    expect(packed.length).toBeLessThan(4 + 3 * 200);
    const restored = new HexahopSimulator(level);
    restored.unpackState(packed, played.moves);
    expect(restored.key()).toBe(played.key());
    expect(restored.count(Tile.Green)).toBe(played.count(Tile.Green));
    for (const sim of [played, restored]) sim.move('NW');
    expect(restored.key()).toBe(played.key());
    const holding = played.clone();
    holding.antiIce = 0;
    expect(holding.packState()).not.toEqual(played.packState());
  });

  it('gives the level as it stands as an instance that plays on the same, unless an item is held or the run is over', () => {
    // The second move lands on the laser, whose shot destroys the green beyond it.
    const level = map(['ogLg', '..og'], [0, 0]);
    const played = play(level, ['SE', 'SE']);
    const here = played.toInstance(level)!;
    expect(here.name).toBe('test');
    expect(here.start).toEqual([2, 0]);
    expect(here.tiles[cellIndex(1, 0)]).toBe(Tile.Water);
    expect(here.tiles[cellIndex(3, 0)]).toBe(Tile.Water);
    const resumed = play(here, ['S', 'SE', 'NW']);
    const whole = play(level, ['SE', 'SE', 'S', 'SE', 'NW']);
    expect(resumed.won).toBe(true);
    expect(resumed.tiles).toEqual(whole.tiles);
    expect(whole.toInstance(level)).toBeUndefined();
    const holding = new HexahopSimulator(map(['oo'], [0, 0], [[1, 0, Item.Jump]]));
    holding.move('SE');
    expect(holding.jumps).toBe(1);
    expect(holding.toInstance(level)).toBeUndefined();
  });

  describe('replays of published solutions (hints.html of hex-a-hop-data) on the real levels', () => {
    const NAMES: Record<string, string> = { U: 'N', UR: 'NE', DR: 'SE', D: 'S', DL: 'SW', UL: 'NW' };
    const expand = (text: string): string[] =>
      text.split(',').flatMap((part) => {
        const [name, times] = part.trim().split('*');
        return Array<string>(Number(times ?? 1)).fill(NAMES[name!]!);
      });
    const SOLUTIONS: Record<string, string> = {
      'Icy Road': 'U, U, DR, D, DL, DR, UR, DR, D, DL, UL, U, UR, DR, UR, UL, U, U',
      Turtle:
        'UL, DR, UL, U, U, DL, UL, UR, DL, UL, DL, U, UL, DL, DL, DR, DR, DL, UL, DR, D, D, UR, DR, DL, UR, DR, DR, U, UR, UR, D, DR, DL, DL, U, U',
      Sprocket:
        'DR, UR, DR, DR, DR, UL, DR, UL, DR, UL, DR, UL, DR, UL, U, U, U, UR, DR, DR, UL, D, UR, DR, DR, D, DL, UL, D, D, UL, UL, UR, U, UL, UR, DR, DR',
      Deathtrap:
        'U, DL, D, DR, UR, DR, D, U, D, U, D, DR, UR, DR, UR, U, D, DR, UR, U, D, U, D, DR, UR, U, D, U, D, U, D, DR, UL',
      'Rolling Hexagons':
        'U, DR, U, DR, UL, D, U, U, UR, DL, DR, UL, U, UR, DL, DR, UL, U, UR, DL, DR, UL, U, U, U, UR, UR, UR, DR, DR, D, D, DL, UL, UL, D, DR, DL, UL',
      Breakthrough:
        'U, DL, UR, UL, DR, D, U, DR, DL, D, UL, DR, UL, DR, DL, UR, D, D, D, D, D, DL, U, D, U, DL, U, DL, D, U',
      'Laser Surgery':
        'D, DR, DR, U, UL, U, UL, UR, UR, DR, U, UR, DR, DR, DR, DL, D, UL, U, DL, D, DR, DL, D, UR, UR, U, UR, D, D, DL, DL, DL, DL, D, D, D, U, D, U',
      'A Strange Place':
        'UR, DR, UR, D, UR, D, DR, DR, DR, DR, U, UR, DL, DL, UL, U, UR, UR, UR, DR, UL, D, UL, DL, UL, UL, U, U, UR, DL, DR, DR, D, U, DR, UR, DR, D, D, U, UR, DR, DL, UL, UR, U, DR, UR, UR, DL, UR, U, DR, UR',
      'Reversing Space':
        'U, U, D, U, UR, UR, U, UL, DR, UL, UR, DL, DR, D, DR, DR, D, DL, D, UR, UR, DL, UR, UL, U, UR, UR, U, UL, U, UR, D, UR, D, DL, D, DR, DR',
      'Rental Boat':
        'UR, DR, U, DR, D, DL, DR, DR, UL, D, DR, DR, DR, U, D, UL, UL, DL, UL, U, UR, UR, U, UL, D, D, D, D, DL',
    };
    const catalog = loadLevelCatalog();
    for (const [name, text] of Object.entries(SOLUTIONS)) {
      it(`wins ${name} alive with the published moves`, () => {
        const entry = catalog.find((e) => e.name === name)!;
        const sut = play(instanceOfLevel(entry), expand(text));
        expect(sut.dead).toBe(false);
        expect(sut.won).toBe(true);
        expect(sut.count(Tile.Green) + sut.count(Tile.GreenWall)).toBe(0);
      });
    }
  });
});
