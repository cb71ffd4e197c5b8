/** What went wrong with a solver run. */
export type SolverFailure =
  'missing-binary' | 'crashed' | 'bad-output' | 'exit-code-mismatch' | 'invalid-model';

/**
 * A solver run that produced no trustworthy answer: a missing binary, a crash, output that does
 * not follow the solver's format, an exit code that contradicts the printed result, or a model
 * that falsifies the formula. Never turned into an answer.
 */
export class SolverError extends Error {
  constructor(
    readonly failure: SolverFailure,
    readonly solver: string,
    message: string,
  ) {
    super(`${solver}: ${message}`);
    this.name = 'SolverError';
  }
}
