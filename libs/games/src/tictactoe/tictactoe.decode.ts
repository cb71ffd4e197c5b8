import type { Model, VariablePool } from '@satfarm/cnf';

import type { TicTacToeCell, TicTacToeSolution } from './tictactoe.model.js';

/** Reads the chosen move from `move(r,c)` and the opponent's winning cells from `threat(r,c)`. */
export function decodeTicTacToe(
  pool: VariablePool,
  empties: readonly TicTacToeCell[],
  model: Model,
): TicTacToeSolution {
  return {
    move: empties.find(([r, c]) => model.named(pool, 'move', r, c)) ?? null,
    blocks: empties.filter(([r, c]) => model.named(pool, 'threat', r, c)),
  };
}
