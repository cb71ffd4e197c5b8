export * from './input-error.js';
export * from './game-definition.js';
export * from './game-registry.js';
export * from './cnf/index.js';
