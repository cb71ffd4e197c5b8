import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import { CnfFormula } from '../cnf-formula.js';

/**
 * Uniform random k-SAT: `clauses` clauses of `k` distinct variables each, signs by a fair coin,
 * from a seeded generator (the same seed gives the same formula). For k = 3 the hard region is
 * near clauses / vars = 4.26.
 */
export function randomKSat(vars: number, clauses: number, k: number, seed: number): CnfFormula {
  if (k > vars) throw new RangeError(`k (${k}) exceeds the number of variables (${vars})`);
  const rng = xoroshiro128plus(seed);
  const f = new CnfFormula();
  f.comment(`random ${k}-SAT: ${vars} variables, ${clauses} clauses, seed ${seed}`);
  f.pool.reserve(vars);
  for (let i = 0; i < clauses; i++) {
    const chosen = new Set<number>();
    while (chosen.size < k) chosen.add(unsafeUniformIntDistribution(1, vars, rng));
    f.add([...chosen].map((v) => (unsafeUniformIntDistribution(0, 1, rng) === 1 ? v : -v)));
  }
  return f;
}
