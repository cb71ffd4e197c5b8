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

/**
 * The board as text, with the winning move as `*`, or, when there is none, the cells the player
 * must take to block as `+`; a last line says which.
 */
export function ticTacToeText(view: TicTacToeRender): string {
  const mark = new Map<string, string>();
  if (view.move) mark.set(`${view.move[0]},${view.move[1]}`, '*');
  else for (const [r, c] of view.blocks ?? []) mark.set(`${r},${c}`, '+');
  const board = view.board.map((row, r) => [...row].map((ch, c) => mark.get(`${r},${c}`) ?? ch).join(' '));
  const at = ([r, c]: readonly number[]): string => `row ${r! + 1}, column ${c! + 1}`;
  const verdict = view.move
    ? `* ${view.player} wins at ${at(view.move)}`
    : (view.blocks ?? []).length === 0
      ? `no move wins at once for ${view.player}, and none needs blocking`
      : `no move wins at once for ${view.player}; + blocks the opponent at ${(view.blocks ?? []).map(at).join('; ')}`;
  return [...board, verdict].join('\n');
}

/** One line naming the position: board size, the run to make and whose move it is. */
export function summarizeTicTacToe(instance: TicTacToeInstance): string {
  return `${instance.n}x${instance.n}, ${instance.k} in a row, ${instance.player} to move`;
}
