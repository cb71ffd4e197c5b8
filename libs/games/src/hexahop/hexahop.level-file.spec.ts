import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import {
  DEFAULT_LEVELS_PATH,
  isWorldMap,
  LevelFileError,
  readLevelFile,
  readLevelRecord,
  readPackEntries,
} from './hexahop.level-file.js';
import { SOLIDITY, Tile } from './hexahop.model.js';

const bytes = readFileSync(DEFAULT_LEVELS_PATH);
const records = readLevelFile();
const levels = records.filter((r) => !isWorldMap(r));

/** A container of `entries` built by hand, in the file's layout. */
function pack(entries: [string, number[]][]): Uint8Array {
  const parts: number[] = [];
  for (const [name, data] of entries) {
    const len = name.length + 1 + data.length;
    parts.push(len & 0xff, (len >> 8) & 0xff, 0, 0, ...Buffer.from(name, 'latin1'), 0, ...data);
  }
  const size = parts.length;
  return Uint8Array.from([...parts, size & 0xff, (size >> 8) & 0xff, 0, 0]);
}

describe(readPackEntries.name, () => {
  it('splits a container into its named entries', () => {
    const sut = readPackEntries(
      pack([
        ['a', [1, 2]],
        ['b\\c', [3]],
      ]),
    );
    expect(sut.map((e) => [e.name, [...e.data]])).toEqual([
      ['a', [1, 2]],
      ['b\\c', [3]],
    ]);
  });

  it('refuses a container whose size does not fit', () => {
    const broken = pack([['a', [1]]]);
    broken[broken.length - 4] = 200;
    expect(() => readPackEntries(broken)).toThrow(LevelFileError);
  });

  it('finds the 101 entries of the installed file, sorted by name, filling the declared size', () => {
    const sut = readPackEntries(bytes);
    expect(sut).toHaveLength(101);
    const names = sut.map((e) => e.name);
    expect([...names].sort()).toEqual(names);
    const declared = bytes.readInt32LE(bytes.length - 4);
    const used = sut.reduce((n, e) => n + 4 + e.name.length + 1 + e.data.length, 0);
    expect(used).toBe(declared);
    expect(names.every((n) => (n.startsWith('Levels\\') && n.endsWith('.lev')) || n.endsWith('.LEV'))).toBe(
      true,
    );
  });
});

describe(readLevelRecord.name, () => {
  it('reads 100 levels and one world map, all of format version 4', () => {
    expect(levels).toHaveLength(100);
    expect(records.filter(isWorldMap).map((r) => r.file)).toEqual(['map']);
    expect(records.every((r) => r.version === 4)).toBe(true);
  });

  it('gives every level a par score, a difficulty 0..10 and bounds on the 30 x 30 map', () => {
    for (const r of levels) {
      expect(r.par).toBeGreaterThan(0);
      expect(r.difficulty).toBeGreaterThanOrEqual(0);
      expect(r.difficulty).toBeLessThanOrEqual(10);
      expect(r.bounds.xmin).toBeLessThanOrEqual(r.bounds.xmax);
      expect(r.bounds.ymin).toBeLessThanOrEqual(r.bounds.ymax);
      expect(r.bounds.xmax).toBeLessThan(30);
      expect(r.bounds.ymax).toBeLessThan(30);
    }
  });

  it('lays the grid out with x outer and y inner: the start is inside and stands on a tile', () => {
    for (const r of levels) {
      const { xmin, xmax, ymin, ymax } = r.bounds;
      expect(r.start.x).toBeGreaterThanOrEqual(xmin);
      expect(r.start.x).toBeLessThanOrEqual(xmax);
      expect(r.start.y).toBeGreaterThanOrEqual(ymin);
      expect(r.start.y).toBeLessThanOrEqual(ymax);
      const tile = r.tiles[(r.start.x - xmin) * (ymax - ymin + 1) + (r.start.y - ymin)]!;
      expect(SOLIDITY[tile], `${r.path} start tile ${tile}`).not.toBe(-1);
    }
  });

  it('finds only known tile ids and items, a green tile in every level, and no specials outside the map', () => {
    for (const r of levels) {
      expect(r.tiles.every((t) => t <= Tile.LiftUp && t !== Tile.DeIced && t !== Tile.Switch)).toBe(true);
      expect(r.items.every((i) => i <= 2)).toBe(true);
      expect(r.tiles.includes(Tile.Green)).toBe(true);
      expect(r.specials).toHaveLength(0);
    }
  });

  it('names each level by its folder (chapter) and file', () => {
    const orbital = levels.find((r) => r.file === 'asymmetrix')!;
    expect(orbital.chapter).toBe('0_green');
    expect(orbital.path).toBe('0_green\\asymmetrix.lev');
    expect(levels.filter((r) => r.chapter === '').length).toBeGreaterThan(0);
  });

  it('refuses a record cut short', () => {
    expect(() => readLevelRecord('x', Uint8Array.from([0x34, 0x0a, 1, 0]))).toThrow(LevelFileError);
  });
});

describe(readLevelFile.name, () => {
  it.each([
    ['/dev/zero', /not a regular file/],
    ['/', /not a regular file/],
    ['/nonexistent/levels.dat', /cannot read/],
  ])('refuses %s at once, without reading it', (path, reason) => {
    expect(() => readLevelFile(path)).toThrow(LevelFileError);
    expect(() => readLevelFile(path)).toThrow(reason);
  });
});
