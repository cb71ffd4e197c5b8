import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';

import { solveParsed, solveWithRefinement } from '@satfarm/engine';
import { Model } from '@satfarm/cnf';
import { KissatRunner } from '@satfarm/solver';

import { storedPuzzles } from '../../../../test/fixtures/puzzles/stored-puzzles.js';
import { singlesGame } from './index.js';
import { encodeSingles, SINGLES_CONNECTIVITY, type SinglesConnectivity } from './singles.encode.js';
import type { SinglesInstance, SinglesSolution } from './singles.model.js';
import { parseSinglesInstance } from './singles.parse.js';
import { verifySingles } from './singles.verify.js';

const kissat = new KissatRunner();

/** One stored puzzle per size and difficulty: 22 puzzles from 4x4 to 12x12. */
const corpus = storedPuzzles('singles').filter(
  (p, i, all) => all.findIndex((q) => q.params === p.params) === i,
);

/** Every valid shading, by trying all 2^(WH) of them against the verifier. */
function bruteForceSolutions(instance: SinglesInstance): string[] {
  const { width, height } = instance;
  const out: string[] = [];
  for (let mask = 0; mask < 1 << (width * height); mask++) {
    const black: [number, number][] = [];
    for (let i = 0; i < width * height; i++)
      if (mask & (1 << i)) black.push([Math.floor(i / width), i % width]);
    if (verifySingles(instance, { black }).ok) out.push(JSON.stringify(black));
  }
  return out.sort();
}

/** Every solution the encoding admits, by solving and blocking until UNSAT. */
async function satSolutions(
  instance: SinglesInstance,
  connectivity: SinglesConnectivity,
  neighbourCuts: boolean,
): Promise<string[]> {
  const encoded = encodeSingles(instance, { variant: { connectivity, neighbourCuts } });
  const out: string[] = [];
  for (;;) {
    const { outcome } = await solveWithRefinement(encoded, kissat);
    if (outcome.status === 'unsat') return out.sort();
    if (outcome.status !== 'sat') throw new Error(`solver gave ${outcome.status}`);
    out.push(JSON.stringify(encoded.decode(outcome.model).black));
    encoded.formula.add(encoded.blockingClause!(outcome.model));
  }
}

function randomGrid(width: number, height: number, values: number, seed: number): SinglesInstance {
  const rng = xoroshiro128plus(seed);
  const grid = Array.from({ length: height }, () =>
    Array.from({ length: width }, () => unsafeUniformIntDistribution(1, values, rng)),
  );
  return { width, height, grid };
}

describe(encodeSingles.name, () => {
  it.each(corpus)('solves $params $id with one verified solution, proven unique', async ({ id }) => {
    const instance = parseSinglesInstance(id);
    const report = await solveParsed(singlesGame, instance, { unique: true });
    expect(report.status).toBe('satisfiable');
    expect(verifySingles(instance, report.solution as SinglesSolution)).toEqual({ ok: true });
    expect(report.unique).toBe(true);
  });

  it.each(SINGLES_CONNECTIVITY)(
    'admits exactly the valid shadings with %s connectivity',
    async (connectivity) => {
      for (const [seed, neighbourCuts] of [
        [1, false],
        [2, true],
        [3, false],
      ] as const) {
        const instance = randomGrid(4, 4, 3, seed);
        const expected = bruteForceSolutions(instance);
        expect(await satSolutions(instance, connectivity, neighbourCuts)).toEqual(expected);
      }
    },
  );

  it.each(SINGLES_CONNECTIVITY.filter((c) => c !== 'auto'))(
    'solves the 12x12 stored puzzles uniquely with %s connectivity',
    async (connectivity) => {
      for (const { id } of corpus.filter((p) => p.params.startsWith('12x12'))) {
        const instance = parseSinglesInstance(id);
        const encoded = encodeSingles(instance, { variant: { connectivity } });
        const first = await solveWithRefinement(encoded, kissat);
        if (first.outcome.status !== 'sat') throw new Error(`expected sat, got ${first.outcome.status}`);
        expect(verifySingles(instance, encoded.decode(first.outcome.model))).toEqual({ ok: true });
        encoded.formula.add(encoded.blockingClause!(first.outcome.model));
        expect((await solveWithRefinement(encoded, kissat)).outcome.status).toBe('unsat');
      }
    },
  );

  it('cuts off every disconnected shading and no valid one with lazy connectivity', () => {
    let disconnected = 0;
    for (const values of [3, 6, 16]) {
      const instance = randomGrid(4, 4, values, values);
      const encoded = encodeSingles(instance, { variant: { connectivity: 'lazy', neighbourCuts: false } });
      const valid = bruteForceSolutions(instance).map((s) => JSON.parse(s) as [number, number][]);
      const modelOf = (black: [number, number][]): Model => {
        const lits = black.map(([r, c]) => encoded.formula.pool.lookup('black', r, c)!);
        return new Model(encoded.formula.numVars, lits);
      };
      for (let mask = 0; mask < 1 << 16; mask++) {
        const black: [number, number][] = [];
        for (let i = 0; i < 16; i++) if (mask & (1 << i)) black.push([Math.floor(i / 4), i % 4]);
        const model = modelOf(black);
        if (model.firstFalsifiedClause(encoded.formula) !== -1) continue;
        const cuts = encoded.refine!(model);
        const ok = verifySingles(instance, { black }).ok;
        expect(cuts === undefined).toBe(ok);
        if (cuts === undefined) continue;
        disconnected++;
        expect(cuts.every((cut) => cut.every((lit) => !model.value(lit)))).toBe(true);
        for (const solution of valid) {
          const good = modelOf(solution);
          expect(cuts.every((cut) => cut.some((lit) => good.value(lit)))).toBe(true);
        }
      }
    }
    expect(disconnected).toBeGreaterThan(0);
  });

  it('shows a second, different solution for an ambiguous puzzle', async () => {
    const instance = parseSinglesInstance({ grid: [[1, 2, 1]] });
    const report = await solveParsed(singlesGame, instance, { unique: true });
    expect(report.unique).toBe(false);
    expect(verifySingles(instance, report.secondSolution as SinglesSolution)).toEqual({ ok: true });
    expect(report.secondSolution).not.toEqual(report.solution);
    // Drawn as the first one is, for the CLI's human view and the dashboard.
    expect(report.secondRender).toEqual(
      singlesGame.render(instance, report.secondSolution as SinglesSolution),
    );
  });

  it('proves a puzzle without a solution unsatisfiable', async () => {
    // One black per row and column, never adjacent: the blacks sit on a diagonal and cut the whites apart.
    const report = await solveParsed(singlesGame, parseSinglesInstance('2x2:1111'), {});
    expect(report.status).toBe('unsatisfiable');
  });

  it('rejects unknown encoding options', () => {
    const instance = parseSinglesInstance('2x2:1221');
    expect(() => encodeSingles(instance, { variant: { connectivity: 'magic' } })).toThrow(RangeError);
    expect(() => encodeSingles(instance, { variant: { colour: 'red' } })).toThrow(RangeError);
  });
});
