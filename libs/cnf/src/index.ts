export * from './variable-pool.js';
export * from './cnf-formula.js';
export * from './model.js';
