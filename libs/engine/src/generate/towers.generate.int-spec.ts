import { describe, expect, it } from 'vitest';

import { InputError, parseTowersInstance, towersGame, verifyTowers } from '@satfarm/games';

import { solveParsed } from '../solve-instance.js';
import { generateTowers, TOWERS_GENERATE_MAX_SIZE } from './towers.generate.js';

describe(generateTowers.name, () => {
  it.each([
    [4, 1],
    [5, 7],
  ])('makes a %ix%i puzzle (seed %i) whose ID parses to a unique, valid puzzle', async (size, seed) => {
    const sut = await generateTowers({ size, seed });
    const instance = parseTowersInstance(sut.id);
    expect(instance).toEqual(sut.instance);
    expect(verifyTowers(instance, sut.solution)).toEqual({ ok: true });
    const report = await solveParsed(towersGame, instance, { unique: true });
    expect(report.unique).toBe(true);
    expect(report.solution).toEqual(sut.solution);
  });

  it('gives the same puzzle for the same seed', async () => {
    const [a, b] = await Promise.all([
      generateTowers({ size: 4, seed: 3 }),
      generateTowers({ size: 4, seed: 3 }),
    ]);
    expect(a.id).toBe(b.id);
  });

  it('keeps every clue without minimising, and drops some when minimising', async () => {
    const full = await generateTowers({ size: 4, seed: 5, minimise: false });
    const clues = (id: string): number =>
      id
        .split(',')[0]!
        .split(':')[1]!
        .split('/')
        .filter((c) => c !== '').length;
    expect(clues(full.id)).toBe(16);
    const minimal = await generateTowers({ size: 4, seed: 5 });
    expect(clues(minimal.id)).toBeLessThan(16);
  });

  it('refuses a size above the largest it makes in reasonable time, naming the option', async () => {
    for (const size of [0, TOWERS_GENERATE_MAX_SIZE + 1, 40]) {
      const generating = generateTowers({ size, seed: 1 });
      await expect(generating).rejects.toThrow(InputError);
      await expect(generating).rejects.toMatchObject({ field: 'size' });
    }
  });
});
