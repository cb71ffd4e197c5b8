import type { TicTacToeInstance } from './tictactoe.model.js';

/** An immediate win is one solve, not a horizon sweep: its horizon is always 0. */
export function ticTacToeLowerBound(_instance: TicTacToeInstance): number {
  return 0;
}
