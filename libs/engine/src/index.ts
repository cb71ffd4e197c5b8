export * from './slot-pool.js';
export * from './horizon-solver.js';
export * from './solve-report.js';
export * from './solve-instance.js';
export * from './option-scope.js';
export * from './formula-memory.js';
