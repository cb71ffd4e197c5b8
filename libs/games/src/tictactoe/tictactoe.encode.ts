/*
 * Immediate win at k in a row on an n x n board, for the player to move. S runs of k cells
 * (S <= 4 n (n - k + 1)), E empty cells, A = the (run, empty cell) pairs, at most S k.
 * Variables: own(r,c), opp(r,c), the board as inputs: 2 n^2;  move(r,c): E;  after(r,c) "the
 *   player's once the move is made": n^2;  run(L) "all of run L the player's after the move": S;
 *   win: 1;  completes(L,e) and blocks(L,e) "taking e completes L for the player / opponent":
 *   at most 2A;  wins(e), threat(e): 2E.
 * Clauses: board units 2 n^2;  move(e) -> e empty: 2E;  at most one move (at-most-one encoding);
 *   after <-> own or move: 3 n^2;  run <-> and of after: S (k + 1);  win <-> or of runs: S + 1;
 *   completes / blocks gates: (k + 2) each;  wins, threat <-> or of their gates: about 2 (A + E);
 *   a move only when it wins: E;  a win whenever some cell wins: E.
 * Why a true run means the move wins: docs/games.md#tic-tac-toe.
 */
import { andOf, atMostOne, CnfFormula, defineAnd, defineOr, type Lit, type Model } from '@satfarm/cnf';

import type { Encoded } from '../game-definition.js';
import { decodeTicTacToe } from './tictactoe.decode.js';
import {
  opponentOf,
  ticTacToeRuns,
  type TicTacToeCell,
  type TicTacToeInstance,
  type TicTacToeSolution,
} from './tictactoe.model.js';

/** Encodes "a winning move, or none when no cell wins", with the opponent's threats read alongside. */
export function encodeTicTacToe(instance: TicTacToeInstance): Encoded<TicTacToeSolution> {
  const { n, k, player, board } = instance;
  const opponent = opponentOf(player);
  const formula = new CnfFormula();
  const pool = formula.pool;
  const own = (r: number, c: number): Lit => pool.named('own', r, c);
  const opp = (r: number, c: number): Lit => pool.named('opp', r, c);
  const empties: TicTacToeCell[] = [];
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++) {
      const cell = board[r]![c];
      formula.add([cell === player ? own(r, c) : -own(r, c)]);
      formula.add([cell === opponent ? opp(r, c) : -opp(r, c)]);
      if (cell === '.') empties.push([r, c]);
    }
  }
  const move = (r: number, c: number): Lit => pool.named('move', r, c);
  const moves = empties.map(([r, c]) => move(r, c));
  for (const [r, c] of empties) {
    formula.add([-move(r, c), -own(r, c)]);
    formula.add([-move(r, c), -opp(r, c)]);
  }
  atMostOne(formula, moves);

  const after = (r: number, c: number): Lit => pool.named('after', r, c);
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < n; c++)
      defineOr(formula, after(r, c), board[r]![c] === '.' ? [own(r, c), move(r, c)] : [own(r, c)]);
  }
  const runs = ticTacToeRuns(n, k);
  const win = pool.named('win');
  defineOr(
    formula,
    win,
    runs.map((run, i) => {
      const v = pool.named('run', i);
      defineAnd(
        formula,
        v,
        run.map(([r, c]) => after(r, c)),
      );
      return v;
    }),
  );

  /** `taker` completes some run by taking `[r, c]`: the cell is empty and the run's others are `taker`'s. */
  const completionsAt = (taker: (r: number, c: number) => Lit, name: string): void => {
    const gates = new Map<string, Lit[]>();
    for (const run of runs) {
      for (const [r, c] of run) {
        if (board[r]![c] !== '.') continue;
        const others = run.filter(([rr, cc]) => rr !== r || cc !== c).map(([rr, cc]) => taker(rr, cc));
        const gate = andOf(formula, [-own(r, c), -opp(r, c), ...others]);
        const key = `${r},${c}`;
        gates.set(key, [...(gates.get(key) ?? []), gate]);
      }
    }
    for (const [r, c] of empties) defineOr(formula, pool.named(name, r, c), gates.get(`${r},${c}`) ?? []);
  };
  completionsAt(own, 'wins');
  completionsAt(opp, 'threat');
  for (const [r, c] of empties) {
    formula.add([-move(r, c), win]);
    formula.add([-pool.named('wins', r, c), win]);
  }

  const decode = (model: Model): TicTacToeSolution => decodeTicTacToe(pool, empties, model);
  return {
    formula,
    decode,
    // Another answer takes another cell, or (after "none") any cell at all.
    blockingClause: (model) => {
      const chosen = decode(model).move;
      return chosen === null ? moves : [-move(chosen[0], chosen[1])];
    },
  };
}
