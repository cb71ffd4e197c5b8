import type { ClaimedAnswer } from '../output/claimed-answer.js';
import type { SolverName, SolverPreset, SolverProgress } from '../solver.types.js';

/** Reads one run's output while it runs, and gives the claimed answer once it has ended. */
export interface SolverOutputReader {
  stdoutLine(line: string): void;
  /** Called after the process has exited (the work directory still exists). */
  finish(): Promise<ClaimedAnswer>;
}

/** What differs between solvers: their command line, their version, and how they answer. */
export interface SolverDialect {
  readonly name: SolverName;
  /** Arguments that make the binary print its version. */
  readonly versionArgs: readonly string[];
  /** `name version` from the output of the version command. */
  parseVersion(stdout: string): string;
  /** Whether a run needs a private work directory (for a result file). */
  readonly usesWorkDir: boolean;
  /**
   * Where the formula goes in the work directory, for a solver that reads a file; without it the
   * formula is streamed to standard input.
   */
  formulaFile?(workDir: string): string;
  /**
   * The arguments that follow the others in a certified run: the formula's file, then the file the
   * DRAT proof goes to. Absent for a solver that writes no proofs (minisat).
   */
  proofArgs?(formulaFile: string, proofFile: string): string[];
  /** Arguments of one run. */
  args(
    preset: SolverPreset,
    extraArgs: readonly string[],
    workDir: string | undefined,
    seed?: number,
  ): string[];
  reader(
    workDir: string | undefined,
    onProgress: ((p: SolverProgress) => void) | undefined,
  ): SolverOutputReader;
}
