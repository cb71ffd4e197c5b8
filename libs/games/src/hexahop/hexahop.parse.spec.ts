import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { InputError } from '../input-error.js';
import { listHexahopLevels } from './hexahop.level-catalog.js';
import { DEFAULT_LEVELS_PATH } from './hexahop.level-file.js';
import { parseHexahopInstance, parseHexahopPlan } from './hexahop.parse.js';
import { scoreOf } from './hexahop.decode.js';
import { Tile } from './hexahop.model.js';
import { cellIndex, type MoveName } from './hexahop.geometry.js';

const sut = parseHexahopInstance;

function inputError(run: () => unknown): InputError {
  try {
    run();
  } catch (error) {
    if (error instanceof InputError) return error;
    throw error;
  }
  throw new Error('no InputError thrown');
}

describe(parseHexahopInstance.name, () => {
  it('finds a level by display name, file name, path or number, ignoring case and spacing', () => {
    const byName = sut({ level: 'Orbital' });
    expect(byName).toMatchObject({ name: 'Orbital', file: 'asymmetrix', chapter: '0_green', number: 1 });
    expect(sut({ level: 'asymmetrix' }).name).toBe('Orbital');
    expect(sut({ level: 'asymmetrix.lev' }).name).toBe('Orbital');
    expect(sut({ level: '0_green/asymmetrix.lev' }).name).toBe('Orbital');
    expect(sut({ level: 1 }).name).toBe('Orbital');
    expect(sut({ level: '  mini   ISLAND ' }).name).toBe('Mini Island');
    expect(sut('{"level": "Hive"}').name).toBe('Hive');
    expect(sut('Hive').name).toBe('Hive');
  });

  it('reads the level from the file: par, start and tiles on the 30 x 30 map', () => {
    const sut2 = sut({ level: 'Hive' });
    expect(sut2.par).toBe(24);
    expect(sut2.tiles).toHaveLength(900);
    expect(sut2.tiles[cellIndex(...sut2.start)]).not.toBe(Tile.Water);
  });

  it('suggests the closest name for a misspelt level', () => {
    const error = inputError(() => sut({ level: 'Orbitall' }));
    expect(error.field).toBe('level');
    expect(error.reason).toBe("no level named 'Orbitall'; did you mean 'Orbital'?");
  });

  it('refuses numbers out of range, the world map and a missing levels file', () => {
    expect(inputError(() => sut({ level: 101 })).field).toBe('level');
    expect(inputError(() => sut({ level: 'map' })).reason).toMatch(/world map/);
    expect(inputError(() => sut({ level: 'Hive', levels: '/nonexistent/levels.dat' })).field).toBe('levels');
  });

  it('in a service, reads only the listed level files and the installed one, and never says which files exist', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hexahop-levels-'));
    try {
      const listed = join(dir, 'levels.dat');
      copyFileSync(DEFAULT_LEVELS_PATH, listed);
      const service = { readableFiles: new Set([listed]) };
      expect(sut({ level: 'Hive', levels: listed }, service).par).toBe(24);
      expect(sut({ level: 'Hive', levels: `${dir}/./levels.dat` }, service).par).toBe(24);
      expect(sut({ level: 'Hive', levels: DEFAULT_LEVELS_PATH }, service).par).toBe(24);
      expect(sut({ level: 'Hive' }, service).par).toBe(24);
      // A valid level file not on the list, another existing file, a missing one, a device and a
      // relative path: one refusal, which says nothing of the file.
      const unlisted = join(dir, 'unlisted.dat');
      copyFileSync(DEFAULT_LEVELS_PATH, unlisted);
      const refusals = [unlisted, '/etc/hostname', join(dir, 'missing.dat'), '/dev/zero', 'levels.dat'].map(
        (levels) => inputError(() => sut({ level: 'Hive', levels }, service)),
      );
      for (const error of refusals) {
        expect(error.field).toBe('levels');
        expect(error.reason).toBe(refusals[0]!.reason);
      }
      expect(refusals[0]!.reason).toMatch(/not a level file this service reads/);
      // Without a list (the command line), any readable file is read.
      expect(sut({ level: 'Hive', levels: listed }).par).toBe(24);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('names the tile type a map uses that is not supported yet, with the reason', () => {
    // A spinner at the map's edge turns tiles off it, which only a windowed level follows.
    const error = inputError(() => sut({ map: ['og', 'S.'], start: [0, 0] }));
    expect(error.field).toBe('map');
    expect(error.reason).toBe(
      "level 'custom' uses tile type 'spinner (next to the edge of the map)', which is not supported yet",
    );
  });

  it('reads two spinners side by side the player reaches, which the encoding follows in a window', () => {
    // Before moves entered each cell once in the static analysis, this map took minutes to read.
    const map = ['.......', '.oooog.', '.gSSoT.', '.Gooo..', '.......'];
    expect(sut({ map, start: [3, 3] }).tiles[cellIndex(2, 2)]).toBe(Tile.Spinner);
    expect(sut({ level: 'Rolling Hexagons' }).par).toBe(79);
  });

  it('reads a map by hand, row y holding the cells (x, y)', () => {
    const map = sut({ map: ['ogG', '.bT'], start: [0, 0], name: 'tiny' });
    expect(map.name).toBe('tiny');
    expect(map.tiles[cellIndex(1, 0)]).toBe(Tile.Green);
    expect(map.tiles[cellIndex(2, 0)]).toBe(Tile.GreenWall);
    expect(map.tiles[cellIndex(1, 1)]).toBe(Tile.Blue);
    expect(map.tiles[cellIndex(2, 1)]).toBe(Tile.Trampoline);
    expect(map.tiles[cellIndex(0, 1)]).toBe(Tile.Water);
  });

  it('names the field at fault in a bad map', () => {
    expect(inputError(() => sut({ map: ['oz'], start: [0, 0] })).field).toBe('map');
    expect(inputError(() => sut({ map: ['oo'], start: [0, 0] })).reason).toMatch(/green/);
    expect(inputError(() => sut({ map: ['og'], start: [5, 5] })).field).toBe('start');
    expect(inputError(() => sut({ map: ['ogS'], start: [0, 0] })).reason).toMatch(
      /'spinner \(next to the edge/,
    );
    expect(inputError(() => sut({ map: ['ogW'], start: [0, 0] })).reason).toMatch(/'switch'/);
    expect(inputError(() => sut({ level: 'Hive', colour: 1 })).field).toBe('colour');
    expect(inputError(() => sut({})).field).toBe('level');
  });
});

describe(listHexahopLevels.name, () => {
  const sut2 = listHexahopLevels();

  it('lists the 100 levels in file order with par, difficulty, tile types and support', () => {
    expect(sut2).toHaveLength(100);
    expect(sut2.map((l) => l.number)).toEqual(Array.from({ length: 100 }, (_, i) => i + 1));
    const orbital = sut2.find((l) => l.name === 'Orbital')!;
    expect(orbital).toMatchObject({
      file: 'asymmetrix',
      chapter: '0_green',
      supported: true,
      unsupported: [],
    });
    expect(orbital.tiles).toEqual(['normal', 'green']);
    expect(sut2.find((l) => l.name === 'Laser Tiles')!.supported).toBe(true);
    // Its lasers' shots may take too many ways round the ice for a tree of beams: the order of
    // their hits is left to refine.
    expect(sut2.find((l) => l.name === 'Breakthrough')!.supported).toBe(true);
    // Its two spinners side by side may roll each other across the map: encoded in a window.
    expect(sut2.find((l) => l.name === 'Rolling Hexagons')!.supported).toBe(true);
    expect(sut2.filter((l) => !l.supported).map((l) => l.name)).toEqual([]);
  });

  it('marks a level supported exactly when the parser accepts it', () => {
    for (const level of sut2) {
      if (level.supported) expect(() => sut({ level: level.number })).not.toThrow();
      else expect(() => sut({ level: level.number })).toThrow(InputError);
    }
  });

  it('names the field for an unreadable file', () => {
    expect(inputError(() => listHexahopLevels('/nonexistent/levels.dat')).field).toBe('levels');
  });
});

describe(parseHexahopPlan.name, () => {
  const orbital = sut({ level: 'Orbital' });

  it('reads moves as a list, a string or a solution, scored by the simulator, with the par', () => {
    const moves = ['N', 'NE', 'J', 'SW'];
    const expected = { moves, score: scoreOf(orbital, moves as MoveName[]), par: orbital.par };
    expect(parseHexahopPlan(moves, orbital)).toEqual(expected);
    expect(parseHexahopPlan(' N NE  J SW ', orbital)).toEqual(expected);
    expect(parseHexahopPlan({ moves, score: 1, par: 2 }, orbital)).toEqual(expected);
    expect(parseHexahopPlan({ moves: 'N NE J SW' }, orbital)).toEqual(expected);
  });

  it('names the field and the move it cannot read', () => {
    expect(inputError(() => parseHexahopPlan(['N', 'UP'], orbital))).toMatchObject({
      field: 'plan',
      reason: "unknown move 'UP' (move 2); moves are N NE SE S SW NW J",
    });
    expect(inputError(() => parseHexahopPlan({ steps: ['N'] }, orbital))).toMatchObject({
      field: 'plan.moves',
      reason: 'missing',
    });
    expect(inputError(() => parseHexahopPlan({ moves: ['N', 3] }, orbital)).field).toBe('plan.moves[1]');
    expect(inputError(() => parseHexahopPlan(42, orbital)).field).toBe('plan');
  });
});
