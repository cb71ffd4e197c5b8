import type { GameDefinition } from '../game-definition.js';
import { encodeTowers } from './towers.encode.js';
import { towersLowerBound } from './towers.lower-bound.js';
import type { TowersInstance, TowersSolution } from './towers.model.js';
import { parseTowersInstance } from './towers.parse.js';
import { renderTowers, towersText, type TowersRender, summarizeTowers } from './towers.render.js';
import { verifyTowers } from './towers.verify.js';

export {
  towersCluesOf,
  clueLineCells,
  TOWERS_SIDES,
  type TowersClues,
  type TowersGiven,
  type TowersInstance,
  type TowersSide,
  type TowersSolution,
  visibleCount,
} from './towers.model.js';
export {
  formatTowersId,
  parseTowersId,
  parseTowersInstance,
  parseTowersJson,
  TOWERS_MAX_SIZE,
} from './towers.parse.js';
export {
  blockTowersSolution,
  DEFAULT_TOWERS_ENCODING,
  encodeTowers,
  type TowersEncodingChoices,
  towersEncodingChoices,
} from './towers.encode.js';
export { verifyTowers } from './towers.verify.js';
export { renderTowers, type TowersRender } from './towers.render.js';
export { towersLowerBound } from './towers.lower-bound.js';

/**
 * Towers (Skyscrapers, docs/cli.md#instance-formats): fill an n x n Latin square whose edge clues
 * count the towers seen. One solve at horizon 0; `--unique` blocks the grid and solves again.
 */
export const towersGame: GameDefinition<TowersInstance, TowersSolution> = {
  id: 'towers',
  planning: false,
  parse: parseTowersInstance,
  lowerBound: towersLowerBound,
  defaultMaxHorizon: () => 0,
  encode: (instance, _horizon, options) => encodeTowers(instance, options),
  verify: (instance, solution) => verifyTowers(instance, solution),
  render: renderTowers,
  summarize: summarizeTowers,
  renderText: (view) => towersText(view as TowersRender),
};
