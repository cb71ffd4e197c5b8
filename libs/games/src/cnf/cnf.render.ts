import type { CnfInstance, CnfSolution } from './cnf.model.js';

/** Size figures and, when solved, the true variables (the dashboard lists them). */
export function renderCnf(instance: CnfInstance, solution: CnfSolution | undefined): unknown {
  return {
    vars: instance.formula.numVars,
    clauses: instance.formula.numClauses,
    trueVariables: solution?.model.filter((lit) => lit > 0),
  };
}

/** One line naming the formula: its variables and clauses. */
export function summarizeCnf(instance: CnfInstance): string {
  return `${instance.formula.numVars} vars, ${instance.formula.numClauses} clauses`;
}
