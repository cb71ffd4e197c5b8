import type { Model } from '@satfarm/cnf';

import type { Encoded } from '../game-definition.js';
import type { CnfInstance, CnfSolution } from './cnf.model.js';

/** Raw DIMACS needs no encoding: the formula is solved as given. */
export function encodeCnf(instance: CnfInstance): Encoded<CnfSolution> {
  const numVars = instance.formula.numVars;
  const decode = (model: Model): CnfSolution => ({ model: model.toLiterals().slice(0, numVars) });
  return {
    formula: instance.formula,
    decode,
    // Another model must differ on at least one variable.
    blockingClause: (model) => decode(model).model.map((lit) => -lit),
  };
}
