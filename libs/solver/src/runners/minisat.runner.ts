import type { SolverRunnerOptions } from '../solver.types.js';
import { minisatDialect } from './minisat.dialect.js';
import { SubprocessSolver } from './subprocess-solver.js';

/** minisat 2.2 as a subprocess; its answer comes through a result file in a per-run work directory. */
export class MinisatRunner extends SubprocessSolver {
  constructor(options: SolverRunnerOptions = {}) {
    super(minisatDialect, options);
  }
}
