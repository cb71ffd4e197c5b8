import type { Verdict } from '../game-definition.js';
import type { CnfInstance, CnfSolution } from './cnf.model.js';

/** Checks every clause of the instance against the assignment, independently of any solver. */
export function verifyCnf(instance: CnfInstance, solution: CnfSolution): Verdict {
  const { formula } = instance;
  const value = new Int8Array(formula.numVars + 1);
  for (const lit of solution.model) {
    const v = Math.abs(lit);
    if (v === 0 || v > formula.numVars) return { ok: false, reason: `literal ${lit} out of range` };
    value[v] = lit > 0 ? 1 : -1;
  }
  let index = 0;
  for (const clause of formula.clauses()) {
    if (!clause.some((lit) => value[Math.abs(lit)] === (lit > 0 ? 1 : -1))) {
      return { ok: false, reason: `clause ${index + 1} is falsified` };
    }
    index++;
  }
  return { ok: true };
}
