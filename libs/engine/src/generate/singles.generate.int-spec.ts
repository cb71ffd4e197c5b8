import { describe, expect, it } from 'vitest';

import { InputError, parseSinglesInstance, singlesGame, verifySingles } from '@satfarm/games';

import { solveParsed } from '../solve-instance.js';
import { generateSingles } from './singles.generate.js';

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

  it.each([
    [{ width: 1 }, 'width', /a 1x1 grid has no puzzle with a unique solution/],
    [{ width: 1, height: 2 }, 'width', /a 1x2 grid/],
    [{ width: 2, height: 1 }, 'height', /a 2x1 grid/],
    [{ width: 36 }, 'width', /must be an integer in 1\.\.35, got 36/],
    [{ width: 3, height: 0 }, 'height', /must be an integer in 1\.\.35, got 0/],
  ])('refuses %j, a size no puzzle has, naming the option', async (size, field, reason) => {
    const generating = generateSingles({ ...size, seed: 1 });
    await expect(generating).rejects.toThrow(InputError);
    await expect(generating).rejects.toMatchObject({
      field,
      reason: expect.stringMatching(reason) as string,
    });
  });

  it('makes the smallest puzzles, of 3 cells', async () => {
    for (const [width, height] of [
      [1, 3],
      [3, 1],
    ]) {
      const sut = await generateSingles({ width: width!, height: height!, seed: 1 });
      expect(verifySingles(sut.instance, sut.solution)).toEqual({ ok: true });
    }
  });

  it('gives up after maxAttempts grids without a unique puzzle', async () => {
    await expect(generateSingles({ width: 5, seed: 1, maxAttempts: 0 })).rejects.toThrow(/no 5x5 puzzle/);
  });
});
