import type { Lit, Model } from '@satfarm/cnf';

import type { Encoded } from '../game-definition.js';

/**
 * An encoding that leaves a rule out of its formula and checks it after each solve (a lazy
 * encoding). The proposed engine hook: solve, and while `refine` returns clauses, add them to the
 * formula and solve again; only then decode and verify. A uniqueness check runs the same loop
 * after adding the blocking clause (cuts already added stay valid).
 */
export interface RefinableEncoded<S> extends Encoded<S> {
  /**
   * Clauses that every solution satisfies and the solution in `model` violates, or undefined (or
   * no clause) when that solution obeys every rule.
   */
  refine?(model: Model): Lit[][] | undefined;
}
