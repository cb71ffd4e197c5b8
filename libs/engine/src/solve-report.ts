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
