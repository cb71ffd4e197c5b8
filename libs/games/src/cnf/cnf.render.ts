import type { CnfInstance, CnfSolution } from './cnf.model.js';

/** Size figures and, when solved, the true variables (the dashboard lists them). */
export function renderCnf(instance: CnfInstance, solution: CnfSolution | undefined): unknown {
  return {
    vars: instance.formula.numVars,
    clauses: instance.formula.numClauses,
    trueVariables: solution?.model.filter((lit) => lit > 0),
  };
}
