import type { GameDefinition } from '../game-definition.js';
import { encodeSingles } from './singles.encode.js';
import { singlesLowerBound } from './singles.lower-bound.js';
import type { SinglesInstance, SinglesSolution } from './singles.model.js';
import { parseSinglesInstance } from './singles.parse.js';
import { renderSingles, singlesText, type SinglesRender, summarizeSingles } from './singles.render.js';
import { verifySingles } from './singles.verify.js';

export {
  singlesNeighbours,
  type SinglesCell,
  type SinglesInstance,
  type SinglesSolution,
  whiteRegions,
} from './singles.model.js';
export {
  formatSinglesId,
  parseSinglesId,
  parseSinglesInstance,
  parseSinglesJson,
  SINGLES_MAX_SIDE,
} from './singles.parse.js';
export {
  blockSinglesSolution,
  DEFAULT_SINGLES_ENCODING,
  encodeSingles,
  SINGLES_CONNECTIVITY,
  type SinglesConnectivity,
  type SinglesEncodingChoices,
  singlesEncodingChoices,
} from './singles.encode.js';
export { connectivityCuts, neighbourCuts, regionBorder } from './connectivity.cuts.js';
export type { RefinableEncoded } from './refinable-encoded.js';
export { verifySingles } from './singles.verify.js';
export { renderSingles, type SinglesRender } from './singles.render.js';
export { singlesLowerBound } from './singles.lower-bound.js';

/**
 * Singles (Hitori, docs/cli.md#instance-formats): shade cells so no number repeats among the white
 * cells of a row or column, no two shaded cells touch and the white cells stay connected. One solve
 * at horizon 0; `--unique` blocks the shading and solves again. The engine runs one solve per
 * horizon, so the default encoding keeps connectivity eager (`auto`); `{ connectivity: 'lazy' }`,
 * much faster, needs a refinement loop (`solveWithRefinement` in @satfarm/engine, or an engine that
 * honours `refine`).
 */
export const singlesGame: GameDefinition<SinglesInstance, SinglesSolution> = {
  id: 'singles',
  planning: false,
  parse: parseSinglesInstance,
  lowerBound: singlesLowerBound,
  defaultMaxHorizon: () => 0,
  encode: (instance, _horizon, options) => encodeSingles(instance, options),
  verify: (instance, solution) => verifySingles(instance, solution),
  render: renderSingles,
  summarize: summarizeSingles,
  renderText: (view) => singlesText(view as SinglesRender),
};
