import type { GameDefinition } from '../game-definition.js';
import { encodeCube } from './cube.encode.js';
import {
  adoptCubeBound,
  cubeBoundIsOptimum,
  cubeBoundSearchPlan,
  cubeLowerBound,
  findCubeBound,
  type FoundCubeBound,
} from './cube.lower-bound.js';
import type { CubeInstance, CubeSolution } from './cube.model.js';
import { parseCubeInstance, parseCubePlan } from './cube.parse.js';
import { joinCubePlan, splitCube } from './cube.split.js';
import { renderCube, cubeText, type CubeRender, summarizeCube } from './cube.render.js';
import { cubePlanLength, verifyCube } from './cube.verify.js';

export * from './cube.model.js';
export { parseCubeInstance, parseCubePlan, parseScramble, parseFacelets } from './cube.parse.js';
export { encodeCube, cubeVariant, defaultCubeVariant, type CubeEncodingVariant } from './cube.encode.js';
export { GoalPerimeter } from './cube.perimeter.js';
export { CubeSymmetry } from './cube.symmetry.js';
export { decodeCubePlan, mergeTurns } from './cube.decode.js';
export { verifyCube, cubePlanLength } from './cube.verify.js';
export { renderCube, faceletNet, type CubeRender, type FaceGrid } from './cube.render.js';
export { cubeLowerBound, PatternDatabase, type PatternSpec, defaultPatterns } from './cube.lower-bound.js';
export {
  type BoundSearchResult,
  searchLowerBound,
  type SearchPattern,
  strongSearchPatterns,
} from './cube.bound-search.js';
export { generateScramble } from './cube.generate.js';
export {
  CornerCoordinate,
  type CubieCoordinate,
  EDGE_GROUP,
  EdgeGroupCoordinate,
} from './cube.coordinates.js';
export {
  PackedDistances,
  PatternTable,
  type SearchLevel,
  searchDistances,
  strongCoordinates,
  StrongCubeBound,
  strongCubeBound,
} from './cube.pattern-table.js';
export {
  buildCubeTables,
  type BuildCubeTablesOptions,
  cubeTableDirectory,
  cubeTableFileName,
  loadStrongCubeBound,
  readPatternTable,
  type TableBuild,
  TABLES_OFF,
} from './cube.table-cache.js';
export { FaceletGeometry } from './cube.facelets.js';
/** The exact 2x2 distance table: a reference for tests and benchmarks, never used by the solver. */
export { PocketCubeDistances, POCKET_STATES } from './cube.reference.js';
export { redundantMoveWindows } from './cube.move-pruning.js';
export { joinCubePlan, splitCube } from './cube.split.js';

/** God's numbers: every 2x2 is solved within 11 (htm) / 14 (qtm) moves, every 3x3 within 20 / 26. */
const GODS_NUMBER = { 2: { htm: 11, qtm: 14 }, 3: { htm: 20, qtm: 26 } } as const;

/**
 * The Rubik's cube (2x2x2 and 3x3x3) as a planning game: the horizon is the number of moves in
 * the instance's metric, and the sweep's optimum is a proven-shortest solution.
 */
export const cubeGame: GameDefinition<CubeInstance, CubeSolution> = {
  id: 'cube',
  planning: true,
  parse: parseCubeInstance,
  lowerBound: (instance) => cubeLowerBound(instance),
  boundIsOptimum: (instance) => cubeBoundIsOptimum(instance),
  searchedBound: {
    find: findCubeBound,
    adopt: (instance, found) => adoptCubeBound(instance, found as FoundCubeBound),
  },
  // The plan the bound's search found (docs/games.md#cube): replayed, then the sweep's SAT answer.
  quickPlan: (instance) => cubeBoundSearchPlan(instance),
  boundProof:
    'breadth-first distances (goal perimeter, pattern databases, pattern tables) and the search over the tables',
  defaultMaxHorizon: (instance) => GODS_NUMBER[instance.size][instance.metric],
  // Faster on both cubes (bench/README.md#cube-latest-figures).
  solverPresets: true,
  encode: encodeCube,
  verify: verifyCube,
  planLength: cubePlanLength,
  parsePlan: parseCubePlan,
  split: splitCube,
  joinPlan: joinCubePlan,
  render: renderCube,
  summarize: summarizeCube,
  renderText: (view) => cubeText(view as CubeRender),
};
