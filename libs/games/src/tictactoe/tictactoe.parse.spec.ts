import { describe, expect, it } from 'vitest';

import { InputError } from '../input-error.js';
import { parseTicTacToeInstance } from './tictactoe.parse.js';

function errorOf(input: unknown): InputError {
  try {
    parseTicTacToeInstance(input);
  } catch (err) {
    if (err instanceof InputError) return err;
    throw err;
  }
  throw new Error(`no error for ${JSON.stringify(input)}`);
}

describe(parseTicTacToeInstance.name, () => {
  it('reads the board, player and k', () => {
    expect(parseTicTacToeInstance({ board: ['X.O', '.X.', 'O..'], player: 'X', k: 3 })).toEqual({
      n: 3,
      k: 3,
      player: 'X',
      board: ['X.O', '.X.', 'O..'],
    });
  });

  it('takes k = n, letters in either case, and the player to move when X starts', () => {
    expect(parseTicTacToeInstance('{"board": ["x..", "...", "..."]}')).toMatchObject({
      k: 3,
      player: 'O',
      board: ['X..', '...', '...'],
    });
    expect(parseTicTacToeInstance({ board: ['XO.', '...', '...'] }).player).toBe('X');
  });

  it.each([
    [{}, 'board', /required/],
    [{ board: [] }, 'board', /non-empty/],
    [{ board: ['X..', '..', '...'] }, 'board[1]', /has 2 cells; a 3-row board needs 3/],
    [{ board: ['X..', '.?.', '...'] }, 'board[1]', /unexpected '\?' at column 1/],
    [{ board: ['X..', [1], '...'] }, 'board[1]', /string/],
    [{ board: ['...', '...', '...'], k: 4 }, 'k', /1\.\.3/],
    [{ board: ['...', '...', '...'], k: 0 }, 'k', /1\.\.3/],
    [{ board: ['...', '...', '...'], player: 'Z' }, 'player', /"X" or "O"/],
    [{ board: ['XX.', '...', '...'] }, 'player', /2 X and 0 O/],
    [{ board: ['XXX', 'OO.', '...'], player: 'O' }, 'board', /X already has 3 in a row from \(0, 0\)/],
    [{ board: ['...', '...', '...'], size: 3 }, 'size', /unknown field/],
    ['[1, 2', 'input', /not valid JSON/],
    [[1], 'input', /object/],
  ])('rejects %j naming the field %s', (input, field, reason) => {
    const err = errorOf(input);
    expect(err.field).toBe(field);
    expect(err.reason).toMatch(reason);
  });
});
