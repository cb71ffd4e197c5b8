export * from './solver.types.js';
export * from './solver.error.js';
export * from './create-solver.js';
export { KissatRunner } from './runners/kissat.runner.js';
export { CadicalRunner } from './runners/cadical.runner.js';
export { MinisatRunner } from './runners/minisat.runner.js';
export {
  installSolverReaper,
  killAllSolvers,
  liveSolverCount,
  type SolverReaperOptions,
} from './process/live-solvers.registry.js';
export { WORK_DIR_PREFIX } from './process/work-dir.js';
export { checkDratProof, DRAT_CHECKER, type DratCheck, type DratCheckSpec } from './proof/drat-check.js';
export { type LaunchMode } from './process/process-launcher.js';
export { type ResourceLimits } from './process/resource-limits.js';
export {
  cgroupCpuQuota,
  cgroupMemoryLimit,
  type CgroupPaths,
  usableCores,
  usableMemory,
} from './process/usable-resources.js';
