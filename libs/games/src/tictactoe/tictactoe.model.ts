/** A player's mark. */
export type TicTacToeMark = 'X' | 'O';

/** A cell as `[row, col]`, 0-based. */
export type TicTacToeCell = [row: number, col: number];

/**
 * A position of k-in-a-row on an n x n board: `board[r][c]` is 'X', 'O' or '.' (empty), `player`
 * is to move, and a player wins by holding k consecutive cells of a row, column or diagonal.
 */
export interface TicTacToeInstance {
  n: number;
  k: number;
  player: TicTacToeMark;
  board: string[];
}

/**
 * The answer: `move`, a cell that completes k in a row for the player at once (null when none
 * does), and `blocks`, every empty cell where the opponent would complete k in a row on their next
 * move (the cells the player must take to stop that), row-major.
 */
export interface TicTacToeSolution {
  move: TicTacToeCell | null;
  blocks: TicTacToeCell[];
}

/** The other player. */
export function opponentOf(player: TicTacToeMark): TicTacToeMark {
  return player === 'X' ? 'O' : 'X';
}

const DIRECTIONS: readonly [number, number][] = [
  [0, 1],
  [1, 0],
  [1, 1],
  [1, -1],
];

/** Every run of k consecutive cells in a row, column or diagonal of an n x n board. */
export function ticTacToeRuns(n: number, k: number): TicTacToeCell[][] {
  const out: TicTacToeCell[][] = [];
  for (const [dr, dc] of DIRECTIONS) {
    for (let r = 0; r < n; r++) {
      for (let c = 0; c < n; c++) {
        const endR = r + dr * (k - 1);
        const endC = c + dc * (k - 1);
        if (endR < 0 || endR >= n || endC < 0 || endC >= n) continue;
        out.push(Array.from({ length: k }, (_, i): TicTacToeCell => [r + dr * i, c + dc * i]));
      }
    }
  }
  return out;
}

/** The first run of k cells all held by `mark`, or undefined. */
export function completedRun(
  board: readonly string[],
  k: number,
  mark: TicTacToeMark,
): TicTacToeCell[] | undefined {
  return ticTacToeRuns(board.length, k).find((segment) => segment.every(([r, c]) => board[r]![c] === mark));
}

/** The board with `mark` placed at `[r, c]`. */
export function placeMark(board: readonly string[], [r, c]: TicTacToeCell, mark: TicTacToeMark): string[] {
  return board.map((row, i) => (i === r ? row.slice(0, c) + mark + row.slice(c + 1) : row));
}
