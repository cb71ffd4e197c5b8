import { describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';
import { KissatRunner } from '@satfarm/solver';

import { storedPuzzles } from '../../../../test/fixtures/puzzles/stored-puzzles.js';
import { towersGame } from './index.js';
import { encodeTowers } from './towers.encode.js';
import { towersCluesOf, type TowersSolution } from './towers.model.js';
import { parseTowersInstance } from './towers.parse.js';
import { verifyTowers } from './towers.verify.js';

/** One stored puzzle per size and difficulty: 28 puzzles from 3x3 to 9x9. */
const corpus = storedPuzzles('towers').filter(
  (p, i, all) => all.findIndex((q) => q.params === p.params) === i,
);

describe(encodeTowers.name, () => {
  it.each(corpus)('solves $params $id with one verified solution, proven unique', async ({ id }) => {
    const instance = parseTowersInstance(id);
    const report = await solveParsed(towersGame, instance, { unique: true });
    expect(report.status).toBe('satisfiable');
    expect(report.verified).toBe(true);
    expect(verifyTowers(instance, report.solution as TowersSolution)).toEqual({ ok: true });
    expect(report.unique).toBe(true);
  });

  it('shows a second, different solution for a puzzle with too few clues', async () => {
    const instance = parseTowersInstance({ n: 4, top: [4, 0, 0, 0] });
    const report = await solveParsed(towersGame, instance, { unique: true });
    expect(report.unique).toBe(false);
    const [first, second] = [report.solution, report.secondSolution] as TowersSolution[];
    expect(verifyTowers(instance, second!)).toEqual({ ok: true });
    expect(second!.grid).not.toEqual(first!.grid);
  });

  it('proves a contradictory puzzle unsatisfiable', async () => {
    // The tallest tower of row 0 cannot stand at both ends.
    const report = await solveParsed(
      towersGame,
      parseTowersInstance({ n: 4, left: [1, 0, 0, 0], right: [1, 0, 0, 0] }),
      {},
    );
    expect(report.status).toBe('unsatisfiable');
  });

  it.each<Record<string, string | boolean>>([
    { cardinality: 'sequential' },
    { bounds: false },
    { amo: 'sequential', cardinality: 'totalizer', bounds: true },
  ])('finds the same unique solution with the variant %j', async (variant) => {
    const { id } = corpus.find((p) => p.params === '7du')!;
    const instance = parseTowersInstance(id);
    const kissat = new KissatRunner();
    const encoded = encodeTowers(instance, { variant });
    const outcome = await kissat.solve({ formula: encoded.formula });
    if (outcome.status !== 'sat') throw new Error(`expected sat, got ${outcome.status}`);
    const solution = encoded.decode(outcome.model);
    expect(verifyTowers(instance, solution)).toEqual({ ok: true });
    encoded.formula.add(encoded.blockingClause!(outcome.model));
    expect((await kissat.solve({ formula: encoded.formula })).status).toBe('unsat');
  });

  it('recovers a grid from all of its own clues', async () => {
    const grid = [
      [2, 3, 1, 4],
      [4, 1, 3, 2],
      [1, 4, 2, 3],
      [3, 2, 4, 1],
    ];
    const instance = { n: 4, ...towersCluesOf(grid), givens: [] };
    const report = await solveParsed(towersGame, instance, {});
    expect(verifyTowers(instance, report.solution as TowersSolution)).toEqual({ ok: true });
  });

  it('rejects unknown encoding options', () => {
    expect(() => encodeTowers(parseTowersInstance({ n: 3 }), { variant: { colour: 'red' } })).toThrow(
      RangeError,
    );
  });
});
