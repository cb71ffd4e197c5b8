import type { RefinableEncoded } from '@satfarm/games';
import type { SatSolver, SolveOutcome } from '@satfarm/solver';

/** How a refinement loop ended: the last solver outcome and what the loop took. */
export interface RefinedOutcome {
  outcome: SolveOutcome;
  /** Solver calls made. */
  rounds: number;
  /** Clauses added by `refine`. */
  cuts: number;
  /** Solver wall time over all rounds. */
  solverMs: number;
}

/** What {@link solveWithRefinement} takes besides the encoding and the solver. */
export interface RefinementOptions {
  signal?: AbortSignal;
  /** Wall-clock limit for the whole loop. */
  timeoutMs?: number;
}

/**
 * Solves `encoded.formula`, adding the clauses `encoded.refine` returns and solving again until a
 * model needs none (or the answer is not SAT). The formula grows in place, so a later solve of it
 * (e.g. with a blocking clause for uniqueness) keeps the cuts. Without `refine` this is one solve.
 */
export async function solveWithRefinement<S>(
  encoded: RefinableEncoded<S>,
  solver: SatSolver,
  options: RefinementOptions = {},
): Promise<RefinedOutcome> {
  const deadline = options.timeoutMs === undefined ? undefined : performance.now() + options.timeoutMs;
  let rounds = 0;
  let cuts = 0;
  let solverMs = 0;
  for (;;) {
    const timeoutMs = deadline === undefined ? undefined : Math.max(1, deadline - performance.now());
    const outcome = await solver.solve({ formula: encoded.formula, signal: options.signal, timeoutMs });
    rounds++;
    solverMs += outcome.stats.wallMs;
    if (outcome.status !== 'sat') return { outcome, rounds, cuts, solverMs };
    const extra = encoded.refine?.(outcome.model);
    if (extra === undefined || extra.length === 0) return { outcome, rounds, cuts, solverMs };
    encoded.formula.addAll(extra);
    cuts += extra.length;
  }
}
