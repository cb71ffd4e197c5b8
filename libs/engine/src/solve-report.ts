import type { EncodingChoices, GameId } from '@satfarm/games';
import type { RacedRun } from './portfolio.js';
import type { SplitStats } from './split-horizon.js';

import type { HorizonStats } from './horizon-solver.js';

/** Final status of a solve, as in the CLI's JSON and the API's job resource. */
export type SolveStatus = 'optimal' | 'satisfiable' | 'unsatisfiable' | 'unknown';

/** One horizon's line in a report. */
export interface HorizonLine {
  t: number;
  result: 'sat' | 'unsat' | 'unknown' | 'cancelled';
  /** The last run's time. */
  ms: number;
  /** How many times the horizon ran, when more than once (a patient probe gave way, then ran again). */
  runs?: number;
  /** Solver calls of a lazy or windowed encoding's last run, when it took more than one. */
  rounds?: number;
  /** Why an unknown horizon has no answer, when its run said. */
  reason?: string;
  /** What gave the answer when no solver run did (the game's quick plan: `quick plan`). */
  by?: string;
  /**
   * The last run's solver processes: CPU time (ms) and largest peak resident set (KiB), as the
   * kernel counted them at their reaping; absent where the launcher cannot know (no native host).
   */
  solverCpuMs?: number;
  solverPeakRssKiB?: number;
  /**
   * The last run's formula, as the solver got it (with any clauses a lazy encoding added):
   * variables and clauses; absent where no solver ran (a plan answered the horizon).
   */
  vars?: number;
  clauses?: number;
  /** With a portfolio: the configuration whose answer stands, and the others that raced it. */
  config?: string;
  raced?: RacedRun[];
  /**
   * A horizon split into cubes (`--split-after`): the depth, the cubes and how many were refuted
   * (`bound` of them by the game's lower bound), the cube whose plan answered, the split's time
   * and how long the horizon ran whole before it. Its formula and solver figures are its cubes'.
   */
  split?: SplitStats;
  /**
   * Certified solves: the last run's DRAT proof, when its answer needed one: `bytes` on disk,
   * drat-trim's `checkMs`, and `result` (`verified`, `rejected`, `limit`, `error`).
   */
  proof?: ProofLine;
}

/** A checked (or capped) proof, as a report's horizon line gives it (docs/solvers.md#certified-answers). */
export interface ProofLine {
  bytes: number;
  checkMs: number;
  result: 'verified' | 'rejected' | 'limit' | 'error';
}

/** A horizon run's proof figures, for a horizon line. */
export function proofOf(stats: { proof?: ProofLine } | undefined): { proof?: ProofLine } {
  const proof = stats?.proof;
  return proof === undefined
    ? {}
    : { proof: { bytes: proof.bytes, checkMs: proof.checkMs, result: proof.result } };
}

/** What `isCertified` reads of a report or a farm's job. */
export interface CertifiableAnswer {
  status: string;
  bounds: { lower: number; upper?: number };
  horizons: ReadonlyArray<{ t: number; result: string; proof?: ProofLine }>;
  unique?: boolean;
  uniqueProof?: ProofLine;
}

/**
 * Whether a certified solve's answer rests on checked proofs only (docs/solvers.md#certified-answers):
 * every UNSAT horizon's proof verified, and the decisive ones there. A planning game's optimum or
 * `unsatisfiable` rests on the UNSAT answer at `bounds.lower - 1` (the horizon below the optimum,
 * or the largest); an optimum at 0 on none. A single solve's UNSAT rests on its own answer, a
 * proven-unique solution on the uniqueness check's UNSAT answer, a plain solution on none (its
 * model is checked). Anything else (a plan not proven optimal, no answer) is not certified.
 */
export function isCertified(answer: CertifiableAnswer, planning: boolean): boolean {
  const verified = (line: { proof?: ProofLine } | undefined): boolean => line?.proof?.result === 'verified';
  if (!answer.horizons.filter((h) => h.result === 'unsat').every(verified)) return false;
  if (planning) {
    if (answer.status !== 'optimal' && answer.status !== 'unsatisfiable') return false;
    const decisive = answer.bounds.lower - 1;
    if (decisive < 0) return true;
    const line = answer.horizons.find((h) => h.t === decisive);
    return line?.result === 'unsat' && verified(line);
  }
  if (answer.status === 'unsatisfiable') return answer.horizons.some((h) => h.result === 'unsat');
  if (answer.status !== 'satisfiable') return false;
  return answer.unique !== true || answer.uniqueProof?.result === 'verified';
}

/** A horizon run's formula size. */
export type FormulaSize = Pick<HorizonStats, 'vars' | 'clauses'>;

/** The formula size that `stats` (a run's, a worker's report, a job's record) has, for a horizon line. */
export function formulaSizeOf(stats: FormulaSize | undefined): Partial<FormulaSize> {
  return stats === undefined ? {} : { vars: stats.vars, clauses: stats.clauses };
}

/** A horizon run's solver usage, where it was measured. */
export type SolverUsage = Pick<HorizonStats, 'solverCpuMs' | 'solverPeakRssKiB'>;

/** The solver usage that `stats` (a run's, a worker's report, a job's record) has, for a horizon line. */
export function solverUsageOf(stats: SolverUsage | undefined): SolverUsage {
  return {
    ...(stats?.solverCpuMs === undefined ? {} : { solverCpuMs: stats.solverCpuMs }),
    ...(stats?.solverPeakRssKiB === undefined ? {} : { solverPeakRssKiB: stats.solverPeakRssKiB }),
  };
}

/** The one JSON object `satfarm solve --json` prints (docs/cli.md#solve). */
export interface SolveReport {
  game: GameId;
  status: SolveStatus;
  horizon?: number;
  solution?: unknown;
  verified: boolean;
  bounds: { lower: number; upper?: number };
  /**
   * What proves the lower bound when the sweep started at the game's bound (`trustBound`); absent,
   * an optimum is backed by the UNSAT answer of the horizon below it.
   */
  boundProof?: string;
  horizons: HorizonLine[];
  stats: { vars: number; clauses: number; solver: string; wallMs: number };
  /** With `unique`: whether a second, different solution exists (it is shown when it does). */
  unique?: boolean;
  secondSolution?: unknown;
  /** Data for drawing the solution (dashboard, the CLI's human view). */
  render?: unknown;
  /** The same for the second solution, when there is one. */
  secondRender?: unknown;
  /** The encoding choices the solve was asked for (`SolveOptions.encoding`), when any. */
  encoding?: EncodingChoices;
  /**
   * With `certify`: whether the answer rests on checked DRAT proofs only (`isCertified`); absent
   * when the solve was not certified.
   */
  certified?: boolean;
  /** With `certify` and `unique`: the proof of the uniqueness check's UNSAT answer. */
  uniqueProof?: ProofLine;
}

/** CLI exit codes (docs/cli.md#exit-codes). */
export const ExitCode = {
  solved: 0,
  noSolution: 1,
  badInput: 2,
  unknown: 3,
  internal: 4,
  unreachable: 5,
} as const;

/**
 * The exit code of a report (or a farm's job): its status, and for a plan its bounds. A plan is
 * solved when nothing is left to prove: a single-solve game's answer (bounds 0..0), or a plan of
 * a planning game whose bounds met (then the status is `optimal`). A planning game's plan whose
 * optimality is unproven (a timeout, an interruption, horizons left unknown below it) exits as
 * unknown, though the report has the plan.
 */
export function exitCodeFor(report: {
  status: SolveStatus;
  bounds: { lower: number; upper?: number };
}): number {
  switch (report.status) {
    case 'optimal':
      return ExitCode.solved;
    case 'satisfiable':
      return report.bounds.upper === report.bounds.lower ? ExitCode.solved : ExitCode.unknown;
    case 'unsatisfiable':
      return ExitCode.noSolution;
    case 'unknown':
      return ExitCode.unknown;
  }
}
