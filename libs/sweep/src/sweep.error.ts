/** A horizon-choice policy name that is none of `HORIZON_POLICIES`. */
export class UnknownPolicyError extends RangeError {
  constructor(
    readonly policy: string,
    readonly known: readonly string[],
  ) {
    super(`unknown horizon policy "${policy}" (known: ${known.join(', ')})`);
    this.name = 'UnknownPolicyError';
  }
}

/**
 * Two horizon results that cannot both hold for a monotone encoding: a plan at or below a horizon
 * proven UNSAT (or below the game's admissible lower bound), or SAT and UNSAT for one horizon. It
 * points at a bug in an encoding or a lower bound, so the sweep stops rather than guess.
 */
export class ContradictoryResultError extends Error {
  constructor(
    readonly t: number,
    readonly reason: string,
  ) {
    super(`contradictory result at horizon ${t}: ${reason}`);
    this.name = 'ContradictoryResultError';
  }
}
