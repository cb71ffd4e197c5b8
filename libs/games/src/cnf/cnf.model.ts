import type { CnfFormula } from '@satfarm/cnf';

/** A raw DIMACS instance: the formula exactly as the user gave it. */
export interface CnfInstance {
  formula: CnfFormula;
}

/** A satisfying assignment: `v` or `-v` for every variable 1..n, as in DIMACS `v` lines. */
export interface CnfSolution {
  model: number[];
}
