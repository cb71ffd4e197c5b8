import type { GameDefinition } from '../game-definition.js';
import { encodeTicTacToe } from './tictactoe.encode.js';
import { ticTacToeLowerBound } from './tictactoe.lower-bound.js';
import type { TicTacToeInstance, TicTacToeSolution } from './tictactoe.model.js';
import { parseTicTacToeInstance } from './tictactoe.parse.js';
import {
  renderTicTacToe,
  ticTacToeText,
  type TicTacToeRender,
  summarizeTicTacToe,
} from './tictactoe.render.js';
import { verifyTicTacToe } from './tictactoe.verify.js';

export {
  completedRun,
  type TicTacToeMark,
  opponentOf,
  placeMark,
  ticTacToeRuns,
  type TicTacToeCell,
  type TicTacToeInstance,
  type TicTacToeSolution,
} from './tictactoe.model.js';
export { parseTicTacToeInstance, TICTACTOE_MAX_SIZE } from './tictactoe.parse.js';
export { encodeTicTacToe } from './tictactoe.encode.js';
export { immediateWins, verifyTicTacToe } from './tictactoe.verify.js';
export { renderTicTacToe, type TicTacToeRender } from './tictactoe.render.js';
export { ticTacToeLowerBound } from './tictactoe.lower-bound.js';

/**
 * Tic-tac-toe, k in a row on n x n (docs/cli.md#instance-formats): a move that wins at once for the
 * player to move, or `"move": null` when none does, with the cells that block the opponent's
 * immediate wins. One solve at horizon 0; `--unique` asks whether another cell also wins.
 */
export const tictactoeGame: GameDefinition<TicTacToeInstance, TicTacToeSolution> = {
  id: 'tictactoe',
  planning: false,
  parse: parseTicTacToeInstance,
  lowerBound: ticTacToeLowerBound,
  defaultMaxHorizon: () => 0,
  encode: (instance) => encodeTicTacToe(instance),
  verify: (instance, solution) => verifyTicTacToe(instance, solution),
  render: renderTicTacToe,
  summarize: summarizeTicTacToe,
  renderText: (view) => ticTacToeText(view as TicTacToeRender),
};
