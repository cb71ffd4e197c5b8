import { describe, expect, it } from 'vitest';

import type { TicTacToeSolution } from './tictactoe.model.js';
import { parseTicTacToeInstance } from './tictactoe.parse.js';
import { verifyTicTacToe } from './tictactoe.verify.js';

describe(verifyTicTacToe.name, () => {
  const instance = parseTicTacToeInstance({ board: ['XX.', 'OO.', '...'], player: 'X' });

  it.each([
    ['a move that does not win', { move: [2, 2], blocks: [[1, 2]] }, /does not complete/],
    ['a taken cell', { move: [1, 0], blocks: [[1, 2]] }, /not an empty cell/],
    ['a cell off the board', { move: [3, 0], blocks: [[1, 2]] }, /off the board/],
    ['none when a move wins', { move: null, blocks: [[1, 2]] }, /\(0, 2\) wins/],
    ['missing blocks', { move: [0, 2], blocks: [] }, /blocks/],
  ])('rejects %s', (_what, solution, reason) => {
    const verdict = verifyTicTacToe(instance, solution as TicTacToeSolution);
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });
});
