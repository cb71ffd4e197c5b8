import type { SolverRunnerOptions } from '../solver.types.js';
import { kissatDialect } from './kissat.dialect.js';
import { SubprocessSolver } from './subprocess-solver.js';

/** kissat as a subprocess: the farm's default solver. */
export class KissatRunner extends SubprocessSolver {
  constructor(options: SolverRunnerOptions = {}) {
    super(kissatDialect, options);
  }
}
