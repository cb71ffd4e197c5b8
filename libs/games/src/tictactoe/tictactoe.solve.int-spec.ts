import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { describe, expect, it } from 'vitest';

import { solveParsed } from '@satfarm/engine';

import { tictactoeGame } from './index.js';
import { encodeTicTacToe } from './tictactoe.encode.js';
import { completedRun, type TicTacToeInstance, type TicTacToeSolution } from './tictactoe.model.js';
import { parseTicTacToeInstance } from './tictactoe.parse.js';
import { immediateWins, verifyTicTacToe } from './tictactoe.verify.js';

async function solve(input: unknown, unique = false) {
  const instance = parseTicTacToeInstance(input);
  const report = await solveParsed(tictactoeGame, instance, { unique });
  expect(report.status).toBe('satisfiable');
  expect(verifyTicTacToe(instance, report.solution as TicTacToeSolution)).toEqual({ ok: true });
  return { instance, report, solution: report.solution as TicTacToeSolution };
}

/** A random unfinished position on an n x n board: about `fill` of the cells marked. */
function randomPosition(n: number, k: number, fill: number, seed: number): TicTacToeInstance | undefined {
  const rng = xoroshiro128plus(seed);
  const board = Array.from({ length: n }, () =>
    Array.from({ length: n }, () => {
      const roll = unsafeUniformIntDistribution(0, 999, rng) / 1000;
      return roll < fill / 2 ? 'X' : roll < fill ? 'O' : '.';
    }).join(''),
  );
  if (completedRun(board, k, 'X') || completedRun(board, k, 'O')) return undefined;
  return { n, k, player: seed % 2 === 0 ? 'X' : 'O', board };
}

describe(encodeTicTacToe.name, () => {
  it('finds the winning move on a row', async () => {
    const { solution } = await solve({ board: ['XX.', 'OO.', '...'], player: 'X', k: 3 });
    expect(solution.move).toEqual([0, 2]);
    expect(solution.blocks).toEqual([[1, 2]]);
  });

  it('finds a winning move on the anti-diagonal', async () => {
    const { solution } = await solve({ board: ['O.X', 'OX.', '...'], player: 'X', k: 3 });
    expect(solution.move).toEqual([2, 0]);
  });

  it('answers none, with no blocks, when nobody can win at once', async () => {
    const { solution } = await solve({ board: ['X..', '.O.', '...'], player: 'X', k: 3 });
    expect(solution).toEqual({ move: null, blocks: [] });
  });

  it('answers none and names the cell that stops the opponent', async () => {
    const { solution } = await solve({ board: ['X..', 'OO.', 'X..'], player: 'X', k: 3 });
    expect(solution).toEqual({ move: null, blocks: [[1, 2]] });
  });

  it('lists both cells of a double threat', async () => {
    const { solution } = await solve({ board: ['.OO.', 'X...', '....', '...X'], player: 'X', k: 3 });
    expect(solution.move).toBeNull();
    expect(solution.blocks).toEqual([
      [0, 0],
      [0, 3],
    ]);
  });

  it('shows a second winning move with --unique, and proves a single one unique', async () => {
    const two = await solve({ board: ['XX.', 'X.O', '.OO'], player: 'X', k: 3 }, true);
    expect(two.report.unique).toBe(false);
    const second = two.report.secondSolution as TicTacToeSolution;
    expect(verifyTicTacToe(two.instance, second)).toEqual({ ok: true });
    expect(second.move).not.toEqual(two.solution.move);
    const one = await solve({ board: ['XX.', 'OO.', '...'], player: 'X', k: 3 }, true);
    expect(one.report.unique).toBe(true);
    const none = await solve({ board: ['X..', '.O.', '...'], player: 'X', k: 3 }, true);
    expect(none.report.unique).toBe(true);
  });

  it('answers none on a full board', async () => {
    const { solution } = await solve({ board: ['XOX', 'XOO', 'OXX'], player: 'O', k: 3 });
    expect(solution).toEqual({ move: null, blocks: [] });
  });

  it.each([
    [5, 4, 0.6],
    [7, 5, 0.6],
    [10, 5, 0.4],
    [15, 5, 0.3],
  ])(
    'agrees with trying every cell on random n x n boards (n = %i, k = %i, %f filled)',
    async (n, k, fill) => {
      let wins = 0;
      let nones = 0;
      for (let seed = 0; seed < 12; seed++) {
        const instance = randomPosition(n, k, fill, seed * 31 + n);
        if (instance === undefined) continue;
        const report = await solveParsed(tictactoeGame, instance, {});
        const solution = report.solution as TicTacToeSolution;
        expect(verifyTicTacToe(instance, solution)).toEqual({ ok: true });
        const expected = immediateWins(instance, instance.player);
        if (expected.length === 0) {
          expect(solution.move).toBeNull();
          nones++;
        } else {
          expect(expected).toContainEqual(solution.move);
          wins++;
        }
      }
      expect(wins).toBeGreaterThan(0);
      expect(nones).toBeGreaterThan(0);
    },
  );
});
