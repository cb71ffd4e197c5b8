import type { GameDefinition } from '../game-definition.js';
import { fieldName, InputError } from '../input-error.js';
import { quickHexahopPlan } from './hexahop.beam-search.js';
import { encodeHexahop } from './hexahop.encode.js';
import { hexahopVariantProblem } from './hexahop.encode-choices.js';
import { hexahopDefaultMaxHorizon, hexahopLowerBound } from './hexahop.lower-bound.js';
import type { HexahopInstance, HexahopSolution } from './hexahop.model.js';
import { parseHexahopInstance, parseHexahopPlan } from './hexahop.parse.js';
import { renderHexahop, hexahopText, type HexahopRender, summarizeHexahop } from './hexahop.render.js';
import { joinHexahopPlan, splitHexahop } from './hexahop.split.js';
import { verifyHexahop } from './hexahop.verify.js';

export {
  cellIndex,
  DIRECTION_NAMES,
  type Direction,
  type DirectionName,
  MAP_SIZE,
  MOVE_NAMES,
  type MoveName,
} from './hexahop.geometry.js';
export {
  DEFAULT_LEVELS_PATH,
  LevelFileError,
  type LevelRecord,
  type PackEntry,
  readLevelFile,
  readLevelRecord,
  readPackEntries,
} from './hexahop.level-file.js';
export { displayNameOf, LEVEL_DISPLAY_NAMES } from './hexahop.level-names.js';
export {
  type HexahopLevelInfo,
  instanceOfLevel,
  listHexahopLevels,
  loadLevelCatalog,
} from './hexahop.level-catalog.js';
export {
  type HexahopInstance,
  HexahopSimulator,
  type HexahopSolution,
  Item,
  SOLIDITY,
  Tile,
  TILE_NAMES,
} from './hexahop.model.js';
export { featuresOf, SUPPORTED_TILES, unsupportedFeatures } from './hexahop.features.js';
export { TILE_CHARS } from './hexahop.map-text.js';
export { windowAround } from './hexahop.statics.js';
export { parseHexahopInstance, parseHexahopPlan } from './hexahop.parse.js';
export { type HexahopSearchOutcome, searchShortestWin } from './hexahop.search.js';
export {
  boundedSearchProblem,
  type HexahopBoundedSearchOptions,
  type HexahopBoundedSearchOutcome,
  searchWinWithin,
} from './hexahop.bounded-search.js';
export {
  BEAM_RANKINGS,
  type BeamRanking,
  beamScore,
  beamSearchWin,
  type HexahopBeamOptions,
  type HexahopBeamOutcome,
} from './hexahop.beam-search.js';
export { encodeHexahop, hexahopPositionVariable } from './hexahop.encode.js';
export {
  DEFAULT_HEXAHOP_ENCODING,
  type HexahopEncodingChoices,
  hexahopEncodingChoices,
  hexahopVariantProblem,
} from './hexahop.encode-choices.js';
export { decodeHexahop, scoreOf } from './hexahop.decode.js';
export { verifyHexahop } from './hexahop.verify.js';
export { joinHexahopPlan, splitHexahop } from './hexahop.split.js';
export { type HexahopFrame, type HexahopRender, renderHexahop } from './hexahop.render.js';
export {
  greensPerShot,
  hexahopDefaultMaxHorizon,
  hexahopLowerBound,
  movesLeftBound,
} from './hexahop.lower-bound.js';

/**
 * Hex-a-Hop (docs/cli.md#instance-formats): destroy every green tile without drowning, in the
 * fewest moves. A planning game: horizon T asks for a win by move T.
 */
export const hexahopGame: GameDefinition<HexahopInstance, HexahopSolution> = {
  id: 'hexahop',
  planning: true,
  parse: parseHexahopInstance,
  lowerBound: hexahopLowerBound,
  defaultMaxHorizon: hexahopDefaultMaxHorizon,
  encode: encodeHexahop,
  checkEncoding: (variant) => {
    const problem = hexahopVariantProblem(variant);
    if (problem !== undefined) throw new InputError(`encoding.${fieldName(problem.key)}`, problem.reason);
  },
  verify: verifyHexahop,
  planLength: (solution) => solution.moves.length,
  parsePlan: parseHexahopPlan,
  split: splitHexahop,
  joinPlan: joinHexahopPlan,
  // Each default below was measured in bench/README.md#hex-a-hop-latest-figures: `leap` ("`leap`
  // on the 62 levels"), the quick plan ("The quick plan"), cadical ("cadical is Hex-a-Hop's
  // default solver").
  defaultPolicy: 'leap',
  quickPlan: quickHexahopPlan,
  defaultSolver: 'cadical',
  render: renderHexahop,
  summarize: summarizeHexahop,
  renderText: (view) => hexahopText(view as HexahopRender),
};
