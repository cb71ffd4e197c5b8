export * from './input-error.js';
export * from './game-definition.js';
export * from './game-registry.js';
export * from './job-options.js';
export * from './split-by-moves.js';
export * from './cnf/index.js';
export * from './cube/index.js';
export * from './snake/index.js';
export * from './hexahop/index.js';
export * from './towers/index.js';
export * from './singles/index.js';
export * from './tictactoe/index.js';
// Both the cube and Hex-a-Hop name their move lists MOVE_NAMES: the plain name is the cube's.
export { MOVE_NAMES, MOVE_NAMES as CUBE_MOVE_NAMES } from './cube/index.js';
export { MOVE_NAMES as HEXAHOP_MOVE_NAMES } from './hexahop/index.js';
