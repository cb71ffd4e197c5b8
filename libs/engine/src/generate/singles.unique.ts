import {
  blockSinglesSolution,
  encodeSingles,
  type SinglesConnectivity,
  type SinglesInstance,
  type SinglesSolution,
} from '@satfarm/games';
import type { SatSolver } from '@satfarm/solver';

import { solveWithRefinement } from '../refinement.loop.js';

/** Proves a known shading the only solution of a puzzle, or finds another, with any connectivity method. */
export class SinglesUniquenessCheck {
  /** Solver calls so far, refinement rounds included. */
  solves = 0;

  constructor(
    private readonly solver: SatSolver,
    private readonly connectivity: SinglesConnectivity,
    private readonly signal?: AbortSignal,
  ) {}

  /** A solution of `instance` other than `solution`, or undefined when there is none. */
  async otherSolution(
    instance: SinglesInstance,
    solution: SinglesSolution,
  ): Promise<SinglesSolution | undefined> {
    const encoded = encodeSingles(instance, { variant: { connectivity: this.connectivity } });
    encoded.formula.add(blockSinglesSolution(encoded.formula, instance.width, instance.height, solution));
    const { outcome, rounds } = await solveWithRefinement(encoded, this.solver, { signal: this.signal });
    this.solves += rounds;
    if (outcome.status === 'unsat') return undefined;
    if (outcome.status === 'sat') return encoded.decode(outcome.model);
    throw new Error(`the solver gave no answer (${outcome.status}) while checking uniqueness`);
  }
}
