import { describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';

import { singlesGame } from './index.js';
import { generateSingles } from './singles.generate.js';
import { parseSinglesInstance } from './singles.parse.js';
import { verifySingles } from './singles.verify.js';

describe(generateSingles.name, () => {
  it.each([
    [5, 5, 1],
    [8, 8, 2],
    [6, 9, 3],
    [12, 12, 4],
  ])(
    'makes a %ix%i puzzle (seed %i) whose ID parses to a unique, valid puzzle',
    async (width, height, seed) => {
      const sut = await generateSingles({ width, height, seed });
      const instance = parseSinglesInstance(sut.id);
      expect(instance).toEqual(sut.instance);
      expect(verifySingles(instance, sut.solution)).toEqual({ ok: true });
      const report = await solveParsed(singlesGame, instance, { unique: true });
      expect(report.unique).toBe(true);
      expect(report.solution).toEqual(sut.solution);
    },
  );

  it('gives the same puzzle for the same seed, with any connectivity method', async () => {
    const a = await generateSingles({ width: 6, seed: 9 });
    const b = await generateSingles({ width: 6, seed: 9, connectivity: 'reach' });
    expect(a.id).toBe(b.id);
  });

  it('gives up on a grid too small to have a unique puzzle', async () => {
    await expect(generateSingles({ width: 2, height: 1, seed: 1, maxAttempts: 3 })).rejects.toThrow(
      /no 2x1 puzzle/,
    );
  });

  it('rejects sizes a game ID cannot hold', async () => {
    await expect(generateSingles({ width: 36 })).rejects.toThrow(RangeError);
  });
});
