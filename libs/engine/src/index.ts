export * from './slot-pool.js';
export * from './horizon-solver.js';
export * from './solve-report.js';
export * from './solve-instance.js';
export * from './solve-options.js';
export * from './formula-memory.js';
export * from './refinement.loop.js';
export * from './thread-exec-argv.js';
export * from './games-module.js';
export { SinglesUniquenessCheck } from './generate/singles.unique.js';
export {
  type GeneratedSingles,
  generateSingles,
  SINGLES_MIN_CELLS,
  type SinglesGenerateOptions,
} from './generate/singles.generate.js';
export {
  type GeneratedTowers,
  generateTowers,
  TOWERS_GENERATE_MAX_SIZE,
  type TowersGenerateOptions,
} from './generate/towers.generate.js';
export * from './run-horizon.js';
export * from './horizon-threads.js';
export * from './run-error.js';
export * from './portfolio.js';
export * from './horizon-portfolio.js';
export * from './split-horizon.js';
export * from './encode-horizon.js';
export * from './version.js';
