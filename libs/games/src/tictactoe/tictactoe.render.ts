import type {
  TicTacToeMark,
  TicTacToeCell,
  TicTacToeInstance,
  TicTacToeSolution,
} from './tictactoe.model.js';

/** What the dashboard draws: the board, whose move it is, and the answer once solved. */
export interface TicTacToeRender {
  n: number;
  k: number;
  player: TicTacToeMark;
  board: string[];
  move?: TicTacToeCell | null;
  blocks?: TicTacToeCell[];
}

/** The position for drawing; `move` and `blocks` only when solved. */
export function renderTicTacToe(
  instance: TicTacToeInstance,
  solution: TicTacToeSolution | undefined,
): TicTacToeRender {
  const { n, k, player, board } = instance;
  return {
    n,
    k,
    player,
    board,
    ...(solution === undefined ? {} : { move: solution.move, blocks: solution.blocks }),
  };
}
