import type { GameId } from '@satfarm/games';

import cube3 from '../../../../examples/cube-3x3.json?raw';
import hexahop from '../../../../examples/hexahop-hive.json?raw';
import php7 from '../../../../examples/php-7.cnf?raw';
import singles from '../../../../examples/singles-6x6.txt?raw';
import snake from '../../../../examples/snake-8x8.json?raw';
import tictactoe from '../../../../examples/tictactoe.json?raw';
import towers from '../../../../examples/towers-5.txt?raw';

/** What the submit form says about a game: its name, what to paste, an example (from examples/). */
export interface GameEntry {
  label: string;
  /** A planning game: a horizon sweep, with a plan length and bounds. */
  planning: boolean;
  hint: string;
  example: string;
}

/** Every game of the farm (typed by the registry's ids, so a new game shows up here as an error). */
export const GAME_CATALOG: Record<GameId, GameEntry> = {
  cube: {
    label: "Rubik's cube",
    planning: true,
    hint: 'A scramble (R U2 F\') of the size chosen beside, or JSON: {"size": 3, "scramble": "..."} or {"size": 3, "facelets": "..."}',
    example: cube3,
  },
  snake: {
    label: 'Snake',
    planning: true,
    hint: 'JSON: {"width", "height", "length", "apples": [[x, y], ...], "order", "body"}',
    example: snake,
  },
  hexahop: {
    label: 'Hex-a-Hop',
    planning: true,
    hint: 'JSON: {"level": "<name or number>"} (a level of the game)',
    example: hexahop,
  },
  towers: {
    label: 'Towers',
    planning: false,
    hint: 'A Tatham game ID (5://3/.../2,k3m) or JSON',
    example: towers,
  },
  singles: {
    label: 'Singles',
    planning: false,
    hint: 'A Tatham game ID (6x6:4655...) or JSON {"grid": [[...]]}',
    example: singles,
  },
  tictactoe: {
    label: 'Tic-tac-toe',
    planning: false,
    hint: 'JSON: {"board": ["X.O", ".X.", "O.."], "player": "X", "k": 3}',
    example: tictactoe,
  },
  cnf: {
    label: 'CNF (DIMACS)',
    planning: false,
    hint: 'DIMACS text: p cnf <vars> <clauses>, then clauses ending in 0',
    example: php7,
  },
};

/**
 * The instance the form sends: JSON when the text is JSON, else the text itself (a Tatham ID,
 * DIMACS); for the cube a bare scramble becomes `{size, scramble}`.
 */
export function instanceFromText(game: GameId, text: string, cubeSize: number): unknown {
  const trimmed = text.trim();
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    if (game === 'cube') return { size: cubeSize, scramble: trimmed };
    return game === 'cnf' ? text : trimmed;
  }
}
