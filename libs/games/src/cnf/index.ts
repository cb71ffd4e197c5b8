import type { GameDefinition } from '../game-definition.js';
import { encodeCnf } from './cnf.encode.js';
import type { CnfInstance, CnfSolution } from './cnf.model.js';
import { parseCnfInstance } from './cnf.parse.js';
import { renderCnf, summarizeCnf } from './cnf.render.js';
import { verifyCnf } from './cnf.verify.js';

export type { CnfInstance, CnfSolution } from './cnf.model.js';

/** Raw DIMACS: a single solve, no horizon. */
export const cnfGame: GameDefinition<CnfInstance, CnfSolution> = {
  id: 'cnf',
  planning: false,
  parse: parseCnfInstance,
  lowerBound: () => 0,
  defaultMaxHorizon: () => 0,
  encode: (instance) => encodeCnf(instance),
  verify: (instance, solution) => verifyCnf(instance, solution),
  render: renderCnf,
  summarize: summarizeCnf,
};
