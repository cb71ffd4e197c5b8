import { cnfGame } from './cnf/index.js';
import { GAME_IDS, type GameDefinition, type GameId } from './game-definition.js';
import { InputError } from './input-error.js';

/** The one table of games: adding a game is one line here plus its folder. */
const GAMES: Partial<Record<GameId, GameDefinition>> = {
  cnf: cnfGame,
};

/** The games that can be solved now. */
export function availableGames(): GameId[] {
  return GAME_IDS.filter((id) => GAMES[id] !== undefined);
}

/** The game called `name`, or an InputError naming the field `game`. */
export function gameById(name: string, field = 'game'): GameDefinition<unknown, unknown> {
  const game = (GAMES as Record<string, GameDefinition<unknown, unknown> | undefined>)[name];
  if (game === undefined) {
    const known = availableGames().join(', ');
    const planned = (GAME_IDS as readonly string[]).includes(name) ? ' (not available yet)' : '';
    throw new InputError(field, `unknown game '${name}'${planned}; known: ${known}`);
  }
  return game;
}
