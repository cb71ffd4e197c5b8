import type { SolverRunnerOptions } from '../solver.types.js';
import { cadicalDialect } from './cadical.dialect.js';
import { SubprocessSolver } from './subprocess-solver.js';

/** cadical as a subprocess. */
export class CadicalRunner extends SubprocessSolver {
  constructor(options: SolverRunnerOptions = {}) {
    super(cadicalDialect, options);
  }
}
