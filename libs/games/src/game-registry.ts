import { cnfGame } from './cnf/index.js';
import { cubeGame } from './cube/index.js';
import { GAME_IDS, type GameDefinition, type GameId } from './game-definition.js';
import { hexahopGame } from './hexahop/index.js';
import { InputError } from './input-error.js';
import { singlesGame } from './singles/index.js';
import { snakeGame } from './snake/index.js';
import { tictactoeGame } from './tictactoe/index.js';
import { towersGame } from './towers/index.js';

/** The one table of games: adding a game is one line here plus its folder. */
const GAMES: Partial<Record<GameId, GameDefinition>> = {
  cube: cubeGame,
  snake: snakeGame,
  hexahop: hexahopGame,
  towers: towersGame,
  singles: singlesGame,
  tictactoe: tictactoeGame,
  cnf: cnfGame,
};

/** The games that can be solved now. */
export function availableGames(): GameId[] {
  return GAME_IDS.filter((id) => GAMES[id] !== undefined);
}

/** The game called `name`, or an InputError naming the field `game`. */
export function gameById(name: string, field = 'game'): GameDefinition {
  // Own keys only: a name such as `__proto__` or `toString` would otherwise find Object's members.
  const game = Object.hasOwn(GAMES, name)
    ? (GAMES as Record<string, GameDefinition | undefined>)[name]
    : undefined;
  if (game === undefined) {
    throw new InputError(field, `unknown game '${name}'; known: ${availableGames().join(', ')}`);
  }
  return game;
}
