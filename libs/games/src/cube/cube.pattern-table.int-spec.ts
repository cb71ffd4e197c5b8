import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { afterAll, describe, expect, it } from 'vitest';

import { generateScramble } from './cube.generate.js';
import { cubeLowerBound } from './cube.lower-bound.js';
import { CubeState } from './cube.model.js';
import { parseCubeInstance } from './cube.parse.js';
import { strongCoordinates } from './cube.pattern-table.js';
import {
  buildCubeTables,
  loadStrongCubeBound,
  readPatternTable,
  type TableBuild,
} from './cube.table-cache.js';

/**
 * 3x3 scrambles with their optimum in the half-turn metric, each proven by the sweep (SAT at the
 * optimum, UNSAT one below) in bench/results/cube.json (the cube benchmark's 3x3 cases).
 */
const PROVEN_HTM: [string, number][] = [
  ["R2 D2 U2 B'", 4],
  ["U L2 B' R'", 4],
  ["D' R' U' F B2", 5],
  ["F2 R' F2 B R'", 5],
  ["B2 R2 F2 R' U B2", 6],
  ['L2 F2 D R2 U2 R2', 6],
  ["R' D2 B' U L B D", 7],
  ["U' L2 F2 U2 F2 D B'", 7],
  ["D B D B2 R L2 B' R2", 8],
  ["F' U L' D F L B2 U", 8],
  ["B D' L' F B2 D' B F R", 9],
  ["L' B2 U' D R D' R2 U2 B", 9],
  ["R L2 U2 F D2 L' R2 F L' F2", 10],
  ["U' D' L' U' L' B F D2 B' L'", 10],
];

const dir = mkdtempSync(join(tmpdir(), 'satfarm-pdb-int-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the strong 3x3 tables (half-turn metric)', () => {
  let built: TableBuild[] = [];

  it(
    'build into an empty folder in well under a minute each, then are found present',
    { timeout: 300_000 },
    () => {
      built = buildCubeTables({ dir, metrics: ['htm'] });
      expect(built.map((b) => [b.pattern, b.status])).toEqual([
        ['corners', 'built'],
        ['edges-0-1-2-3-8-9', 'built'],
      ]);
      for (const b of built) {
        expect(b.histogram!.reduce((a, c) => a + c, 0)).toBe(b.entries);
        expect(b.ms!.search).toBeLessThan(60_000);
      }
      // Every corner pattern within 11 moves (the counts other corner databases give), every
      // pattern of six edges within 10.
      expect(built[0]!.histogram).toEqual([
        1, 18, 243, 2874, 28000, 205416, 1168516, 5402628, 20776176, 45391616, 15139616, 64736,
      ]);
      expect(built[1]!.histogram!.length - 1).toBe(10);
      expect(readdirSync(dir).sort()).toEqual([
        'cube3-htm-corners-v1.pdb',
        'cube3-htm-edges-0-1-2-3-8-9-v1.pdb',
      ]);
      expect(buildCubeTables({ dir, metrics: ['htm'] }).map((b) => b.status)).toEqual(['present', 'present']);
    },
  );

  it('hold the breadth-first distance at sampled indices: one more than the nearest successor', () => {
    const rng = xoroshiro128plus(7);
    for (const coord of strongCoordinates('htm')) {
      const read = readPatternTable(dir, 'htm', coord);
      if (read.status !== 'present') throw new Error(`${coord.name} is ${read.status}`);
      const out = new Uint32Array(coord.moveCount);
      const solved = coord.index(CubeState.solved(3));
      expect(read.distances.get(solved)).toBe(0);
      for (let n = 0; n < 5_000; n++) {
        const i = unsafeUniformIntDistribution(0, coord.count - 1, rng);
        coord.successors(i, out);
        const nearest = Math.min(...Array.from(out, (j) => read.distances.get(j)));
        expect(read.distances.get(i), `${coord.name} ${i}`).toBe(i === solved ? 0 : nearest + 1);
      }
    }
  });

  it('never exceed a proven optimum, and start closer to it than the small databases', () => {
    const tables = loadStrongCubeBound('htm', dir)!;
    expect(tables).toBeDefined();
    let gained = 0;
    for (const [scramble, optimum] of PROVEN_HTM) {
      const instance = parseCubeInstance({ size: 3, scramble });
      const strong = cubeLowerBound(instance, undefined, tables);
      const old = cubeLowerBound(instance, undefined, 'none');
      expect(strong, scramble).toBeLessThanOrEqual(optimum);
      expect(strong).toBeGreaterThanOrEqual(old);
      gained += strong - old;
    }
    expect(gained).toBeGreaterThan(PROVEN_HTM.length);
  });

  it('are never below the small databases, nor above the scramble, on random states', () => {
    const tables = loadStrongCubeBound('htm', dir)!;
    let sumOld = 0;
    let sumStrong = 0;
    for (let seed = 0; seed < 200; seed++) {
      const n = 1 + (seed % 20);
      const instance = parseCubeInstance({ size: 3, scramble: generateScramble(3, n, 900 + seed).join(' ') });
      const strong = cubeLowerBound(instance, undefined, tables);
      const old = cubeLowerBound(instance, undefined, 'none');
      expect(strong).toBeGreaterThanOrEqual(old);
      expect(strong).toBeLessThanOrEqual(n);
      sumOld += old;
      sumStrong += strong;
    }
    expect(sumStrong - sumOld).toBeGreaterThan(200);
  });
});
