import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterEach, beforeEach, describe, expect, it } from 'vitest';

import { CornerTwistCoordinate, EdgeGroupCoordinate } from './cube.coordinates.js';
import { cubeLowerBound } from './cube.lower-bound.js';
import { parseCubeInstance } from './cube.parse.js';
import { searchDistances } from './cube.pattern-table.js';
import {
  buildCubeTables,
  CUBE_TABLE_FORMAT,
  cubeTableDirectory,
  cubeTableFileName,
  loadStrongCubeBound,
  readPatternTable,
  tableChecksum,
  writePatternTable,
} from './cube.table-cache.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'satfarm-pdb-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe(cubeTableDirectory.name, () => {
  it('takes SATFARM_PDB_DIR, else the XDG cache, else ~/.cache; `off` turns the tables off', () => {
    expect(cubeTableDirectory({ SATFARM_PDB_DIR: '/srv/pdb' })).toBe('/srv/pdb');
    expect(cubeTableDirectory({ SATFARM_PDB_DIR: 'off' })).toBeUndefined();
    expect(cubeTableDirectory({ XDG_CACHE_HOME: '/var/cache/me' })).toBe('/var/cache/me/satfarm/pdb');
    expect(cubeTableDirectory({ SATFARM_PDB_DIR: '', XDG_CACHE_HOME: '' })).toBe(
      join(homedir(), '.cache', 'satfarm', 'pdb'),
    );
  });

  it('names files by cube size, metric, pattern and format version', () => {
    expect(cubeTableFileName('qtm', new EdgeGroupCoordinate('qtm', [0, 1, 2, 3, 4, 5]))).toBe(
      `cube3-qtm-edges-0-1-2-3-4-5-v${CUBE_TABLE_FORMAT}.pdb`,
    );
  });
});

describe('table files', () => {
  const coord = new CornerTwistCoordinate('htm');
  const file = (): string => join(dir, cubeTableFileName('htm', coord));

  it('read back what was written, through a temporary name', () => {
    const distances = searchDistances(coord);
    expect(readPatternTable(dir, 'htm', coord).status).toBe('missing');
    writePatternTable(join(dir, 'nested'), 'htm', coord, distances);
    writePatternTable(dir, 'htm', coord, distances);
    expect(readdirSync(dir).sort()).toEqual([cubeTableFileName('htm', coord), 'nested']);
    const read = readPatternTable(dir, 'htm', coord);
    expect(read.status).toBe('present');
    expect(read.status === 'present' && Array.from(read.distances.bytes)).toEqual(
      Array.from(distances.bytes),
    );
    expect(readFileSync(file()).subarray(0, 30).toString()).toMatch(/^\{"format":"satfarm-pdb"/);
    // Another metric's or pattern's file is another file.
    expect(readPatternTable(dir, 'qtm', new CornerTwistCoordinate('qtm')).status).toBe('missing');
  });

  it('refuse a file cut short, with another header, or whose entries changed', () => {
    const distances = searchDistances(coord);
    writePatternTable(dir, 'htm', coord, distances);
    const whole = readFileSync(file());
    writeFileSync(file(), whole.subarray(0, whole.length - 1));
    expect(readPatternTable(dir, 'htm', coord).status).toBe('mismatched');
    writeFileSync(
      file(),
      Buffer.from(whole.toString('latin1').replace('"version":1', '"version":9'), 'latin1'),
    );
    expect(readPatternTable(dir, 'htm', coord).status).toBe('mismatched');
    const flipped = Buffer.from(whole);
    flipped[flipped.length - 5]! ^= 1;
    writeFileSync(file(), flipped);
    expect(readPatternTable(dir, 'htm', coord).status).toBe('mismatched');
    writeFileSync(file(), Buffer.alloc(whole.length, 0x20));
    expect(readPatternTable(dir, 'htm', coord).status).toBe('mismatched');
  });

  it('are built when missing or mismatched, and left alone when present', () => {
    const coordinates = (): [CornerTwistCoordinate] => [new CornerTwistCoordinate('htm')];
    const first = buildCubeTables({ dir, metrics: ['htm'], coordinates });
    expect(first).toMatchObject([
      { pattern: 'co', status: 'built', replaced: false, entries: 2187, bytes: 1094 },
    ]);
    expect(first[0]!.histogram!.reduce((a, b) => a + b, 0)).toBe(2187);
    expect(buildCubeTables({ dir, metrics: ['htm'], coordinates })).toMatchObject([{ status: 'present' }]);
    expect(buildCubeTables({ dir, metrics: ['htm'], coordinates, force: true })).toMatchObject([
      { status: 'built', replaced: false },
    ]);
    writeFileSync(file(), 'partial');
    expect(buildCubeTables({ dir, metrics: ['htm'], coordinates })).toMatchObject([
      { status: 'built', replaced: true },
    ]);
    expect(readPatternTable(dir, 'htm', coord).status).toBe('present');
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
  });

  it('checksum words and trailing bytes alike, aligned or not', () => {
    const bytes = Uint8Array.from({ length: 11 }, (_, i) => i * 7);
    const shifted = new Uint8Array(12);
    shifted.set(bytes, 1);
    expect(tableChecksum(shifted.subarray(1))).toBe(tableChecksum(bytes));
    const changed = Uint8Array.from(bytes);
    changed[10]! ^= 1;
    expect(tableChecksum(changed)).not.toBe(tableChecksum(bytes));
  });
});

describe(loadStrongCubeBound.name, () => {
  it('gives none without the tables (or with them off), and the bound falls back to the small databases', () => {
    expect(loadStrongCubeBound('htm', dir)).toBeUndefined();
    expect(loadStrongCubeBound('htm', undefined)).toBeUndefined();
    expect(readdirSync(dir)).toEqual([]);
    const instance = parseCubeInstance({ size: 3, scramble: "R U F' L2 D B R2 U'" });
    expect(cubeLowerBound(instance)).toBe(cubeLowerBound(instance, undefined, 'none'));
  });
});
