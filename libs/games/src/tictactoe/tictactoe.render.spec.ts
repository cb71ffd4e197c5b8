import { describe, expect, it } from 'vitest';

import { parseTicTacToeInstance } from './tictactoe.parse.js';
import { renderTicTacToe, ticTacToeText } from './tictactoe.render.js';

describe(ticTacToeText.name, () => {
  it('marks the winning move with * and names its row and column from 1', () => {
    const instance = parseTicTacToeInstance({ board: ['X.O', '.X.', 'O..'], player: 'X' });
    expect(ticTacToeText(renderTicTacToe(instance, { move: [2, 2], blocks: [] }))).toBe(
      ['X . O', '. X .', 'O . *', '* X wins at row 3, column 3'].join('\n'),
    );
  });

  it('without a winning move marks the cells to block with +', () => {
    const instance = parseTicTacToeInstance({ board: ['OO.', 'X..', '...'], player: 'X' });
    expect(ticTacToeText(renderTicTacToe(instance, { move: null, blocks: [[0, 2]] }))).toBe(
      [
        'O O +',
        'X . .',
        '. . .',
        'no move wins at once for X; + blocks the opponent at row 1, column 3',
      ].join('\n'),
    );
  });
});
