import { CadicalRunner } from './runners/cadical.runner.js';
import { KissatRunner } from './runners/kissat.runner.js';
import { MinisatRunner } from './runners/minisat.runner.js';
import type { SatSolver, SolverName, SolverRunnerOptions } from './solver.types.js';

/** The runner of solver `name`. */
export function createSolver(name: SolverName, options: SolverRunnerOptions = {}): SatSolver {
  switch (name) {
    case 'kissat':
      return new KissatRunner(options);
    case 'cadical':
      return new CadicalRunner(options);
    case 'minisat':
      return new MinisatRunner(options);
    default:
      throw new RangeError(`unknown solver '${String(name)}' (expected kissat, cadical or minisat)`);
  }
}
