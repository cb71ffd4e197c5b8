import { CnfFormula } from '../cnf-formula.js';

/**
 * The pigeonhole formula PHP(pigeons, holes): every pigeon sits in a hole and no hole holds
 * two. Satisfiable exactly when pigeons <= holes; with pigeons = holes + 1 it is the classic
 * hard UNSAT family (resolution proofs are exponential in the size).
 *
 * Variables: `in(p,h)`, pigeons * holes. Clauses: one "somewhere" clause per pigeon
 * (pigeons clauses of `holes` literals) and one binary clause per pair of pigeons per hole
 * (holes * pigeons * (pigeons - 1) / 2).
 */
export function pigeonhole(pigeons: number, holes: number): CnfFormula {
  const f = new CnfFormula();
  f.comment(`pigeonhole: ${pigeons} pigeons, ${holes} holes`);
  for (let p = 0; p < pigeons; p++) for (let h = 0; h < holes; h++) f.pool.named('in', p, h);
  for (let p = 0; p < pigeons; p++) {
    const somewhere: number[] = [];
    for (let h = 0; h < holes; h++) somewhere.push(f.pool.named('in', p, h));
    f.add(somewhere);
  }
  for (let h = 0; h < holes; h++) {
    for (let a = 0; a < pigeons; a++) {
      for (let b = a + 1; b < pigeons; b++) f.add([-f.pool.named('in', a, h), -f.pool.named('in', b, h)]);
    }
  }
  return f;
}
