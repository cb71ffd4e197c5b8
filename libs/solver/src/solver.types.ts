import type { LaunchMode } from './process/process-launcher.js';
import type { CnfFormula, Model } from '@satfarm/cnf';

/** The SAT solvers the farm can run. */
export const SOLVER_NAMES = ['kissat', 'cadical', 'minisat'] as const;
export type SolverName = (typeof SOLVER_NAMES)[number];

/**
 * A solver configuration tuned for an expected answer: `sat` and `unsat` map to the `--sat` and
 * `--unsat` options of kissat and cadical; minisat has no such configurations and ignores them.
 */
export type SolverPreset = 'default' | 'sat' | 'unsat';

/** One solve of one formula. */
export interface SolveRequest {
  /** The formula, streamed to the solver from `formula.dimacsChunks()`. */
  formula: CnfFormula;
  /** Aborting kills the solver's whole process group; the outcome is then `cancelled`. */
  signal?: AbortSignal;
  /** Wall-clock limit in milliseconds; when it passes the outcome is `unknown` with reason `timeout`. */
  timeoutMs?: number;
  preset?: SolverPreset;
  /** The solver's random seed (kissat's and cadical's `--seed`; minisat ignores it). */
  seed?: number;
  /** Called for every periodic report line the solver prints. */
  onProgress?: (p: SolverProgress) => void;
  /**
   * Certify an UNSAT answer: the solver writes a DRAT proof to a file of the run's work directory,
   * and drat-trim checks it before the answer stands (docs/solvers.md#certified-answers). Only
   * solvers with `proofs` take it.
   */
  proof?: ProofRequest;
}

/** How a certified run's proof is written and checked. */
export interface ProofRequest {
  /** The largest proof, bytes: past it the solver is stopped and the answer is `unknown`/`proof-limit`. */
  maxBytes: number;
  /** The checker's binary (default `drat-trim`, looked up in PATH). */
  checker?: string;
}

/** What became of one run's proof: checked (`verified`, `rejected`), cut at its cap, or the checker failed. */
export type ProofResult = 'verified' | 'rejected' | 'limit' | 'error';

/** A certified run's proof: its size, the check's time and its result. */
export interface ProofFigures {
  /** The proof's size on disk, bytes. */
  bytes: number;
  /** drat-trim's wall time, ms (0 when no check ran). */
  checkMs: number;
  result: ProofResult;
}

/** One periodic report line of a running solver. */
export interface SolverProgress {
  /** Seconds since the solver started, as the solver measures them. */
  seconds: number;
  conflicts?: number;
  /** Variables still active: neither fixed nor eliminated. */
  remainingVariables?: number;
  /** The line as printed. */
  raw: string;
}

/** Figures about one solver run. */
export interface SolverStats {
  /** Solver name and version, e.g. `kissat 4.0.2-1`. */
  solver: string;
  wallMs: number;
  conflicts?: number;
  decisions?: number;
  propagations?: number;
  /** The process's exit code; null when it never ran or was ended by a signal. */
  exitCode: number | null;
  /** The solver process's peak resident set, KiB (from its reaping; where the launcher knows it). */
  peakRssKiB?: number;
  /** The solver process's CPU time, user and system, ms (as `peakRssKiB`). */
  cpuMs?: number;
  /** A certified run's proof (`SolveRequest.proof`), when one was written and the answer needed it. */
  proof?: ProofFigures;
}

/** Why a run ended without an answer. */
export type UnknownReason =
  | 'timeout'
  | 'limit'
  | 'solver-unknown'
  /** A certified run's proof reached `ProofRequest.maxBytes`. */
  | 'proof-limit'
  /** drat-trim did not verify the proof of an UNSAT answer: the answer is void. */
  | 'proof-rejected'
  /** drat-trim failed (crashed, or ended without a verdict): the UNSAT answer is unchecked. */
  | 'proof-error';

/** The answer of one solve. A `sat` model has been checked against the formula. */
export type SolveOutcome =
  | { status: 'sat'; model: Model; stats: SolverStats }
  | { status: 'unsat'; stats: SolverStats }
  | { status: 'unknown'; reason: UnknownReason; stats: SolverStats }
  | { status: 'cancelled'; stats: SolverStats };

/** A SAT solver run as a subprocess. */
export interface SatSolver {
  readonly name: SolverName;
  /** Whether the solver writes DRAT proofs, so its UNSAT answers can be certified (`SolveRequest.proof`). */
  readonly proofs: boolean;
  /** Name and version of the installed binary, e.g. `kissat 4.0.2-1` (looked up once, then cached). */
  version(): Promise<string>;
  /** Solves one formula. Rejects with `SolverError` when the solver fails; never returns a wrong answer. */
  solve(req: SolveRequest): Promise<SolveOutcome>;
}

/** How a runner starts its solver. */
export interface SolverRunnerOptions {
  /** Path or name (looked up in PATH) of the solver binary; defaults to the solver's name. */
  binary?: string;
  /** Extra command-line arguments, placed before the input. */
  extraArgs?: string[];
  /** CPU-time limit in seconds (rounded up), enforced with `prlimit`; hitting it gives `unknown`/`limit`. */
  cpuSeconds?: number;
  /** Address-space limit in MiB, enforced with `prlimit`; running out of it gives `unknown`/`limit`. */
  memoryMiB?: number;
  /** On timeout or cancel, time in ms between SIGTERM and SIGKILL; 0 (the default) kills at once. */
  termGraceMs?: number;
  /** Parent directory of the per-run work directories (`satfarm-solver-*`); defaults to `os.tmpdir()`. */
  tmpDir?: string;
  /**
   * How solver processes are started: `host` (default) forks them from a small helper process, so
   * the fork never blocks this process's event loop; `direct` spawns them from this process.
   */
  launch?: LaunchMode;
}
