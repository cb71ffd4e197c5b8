import type { Verdict } from '../game-definition.js';
import {
  completedRun,
  type TicTacToeMark,
  opponentOf,
  placeMark,
  type TicTacToeCell,
  type TicTacToeInstance,
  type TicTacToeSolution,
  ticTacToeRuns,
} from './tictactoe.model.js';

/**
 * Every empty cell where `mark` would complete k in a row at once, row-major: each cell is tried
 * against every run of k cells through it.
 */
export function immediateWins(instance: TicTacToeInstance, mark: TicTacToeMark): TicTacToeCell[] {
  const { n, k, board } = instance;
  const runsThrough = new Map<number, TicTacToeCell[][]>();
  for (const run of ticTacToeRuns(n, k)) {
    for (const [r, c] of run) runsThrough.set(r * n + c, [...(runsThrough.get(r * n + c) ?? []), run]);
  }
  const out: TicTacToeCell[] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      if (board[r]![c] !== '.') continue;
      const completes = (runsThrough.get(r * n + c) ?? []).some((run) =>
        run.every(([rr, cc]) => (rr === r && cc === c) || board[rr]![cc] === mark),
      );
      if (completes) out.push([r, c]);
    }
  }
  return out;
}

/**
 * Checks an answer by playing it, independently of the encoding: the move is an empty cell that
 * completes k in a row for the player, or it is null and no cell does; `blocks` lists exactly the
 * cells where the opponent would win on their next move.
 */
export function verifyTicTacToe(instance: TicTacToeInstance, solution: TicTacToeSolution): Verdict {
  const { n, k, player, board } = instance;
  const wins = immediateWins(instance, player);
  if (solution.move === null) {
    if (wins.length > 0)
      return { ok: false, reason: `no move given, but (${wins[0]![0]}, ${wins[0]![1]}) wins` };
  } else {
    const [r, c] = solution.move;
    if (!Number.isInteger(r) || !Number.isInteger(c) || r < 0 || r >= n || c < 0 || c >= n) {
      return { ok: false, reason: `move (${r}, ${c}) is off the board` };
    }
    if (board[r]![c] !== '.') return { ok: false, reason: `move (${r}, ${c}) is not an empty cell` };
    if (!completedRun(placeMark(board, [r, c], player), k, player)) {
      return { ok: false, reason: `move (${r}, ${c}) does not complete ${k} in a row` };
    }
  }
  const threats = immediateWins(instance, opponentOf(player));
  const key = (cells: readonly TicTacToeCell[]): string => JSON.stringify(cells);
  if (key(threats) !== key(solution.blocks)) {
    return {
      ok: false,
      reason: `blocks ${key(solution.blocks)} differ from the opponent's winning cells ${key(threats)}`,
    };
  }
  return { ok: true };
}
