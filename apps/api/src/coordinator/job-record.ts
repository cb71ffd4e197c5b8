import type { JobEncodingChoices, JobProofLine, JobStatus, SolverNameSchema } from '@satfarm/queue';
import type { RacedRun } from '@satfarm/engine';
import type { SweepState } from '@satfarm/sweep';
import type { z } from 'zod';

/** A job's options with the farm's defaults applied. */
export interface ResolvedJobOptions {
  maxHorizon: number;
  /** Where the sweep starts (see `SolveOptions.minHorizon`); checked, never trusted. */
  minHorizon?: number;
  parallelism: number;
  timeoutSec?: number;
  solver: z.infer<typeof SolverNameSchema>;
  priority: number;
  unique: boolean;
  policy: string;
  /** The sweep's patience in seconds (see `HorizonRun`); none when absent. */
  patienceSec?: number;
  /** Solver presets by the bounds (`horizonPreset`). */
  presets: boolean;
  /** Encoding choices for the game's encoder, as the game checked them; none when absent. */
  encoding?: JobEncodingChoices;
  /** Configurations each horizon races under, its own run included (docs/farm.md#portfolio); absent: 1. */
  portfolio?: number;
  /** Seconds a horizon runs before it is split into cubes (docs/farm.md#splitting); absent: never. */
  split?: number;
  /**
   * Check every UNSAT answer's DRAT proof (`options.certify`, else SATFARM_CERTIFY), each proof at
   * most `proofLimitMiB` (docs/solvers.md#certified-answers); absent: off.
   */
  certify?: { proofLimitMiB: number };
}

/** What never changes about a job once it is created. */
export interface JobMeta {
  id: string;
  batchId?: string;
  /** Who submitted it: a digest of its API key, `anonymous` on a farm without keys. */
  owner?: string;
  /** Its place in its batch (0-based). */
  batchPosition?: number;
  game: string;
  /** The game's one-line summary of the instance (`GameDefinition.summarize`). */
  summary?: string;
  /** A planning game (horizon sweep) or a single solve at horizon 0. */
  planning: boolean;
  options: ResolvedJobOptions;
  /** The game's admissible lower bound on the horizon for this instance. */
  lowerBound: number;
  /** What proves `lowerBound` when the sweep starts at it (`options.trustBound`). */
  boundProof?: string;
  /** The smallest horizon known SAT before any run: a trusted bound the game proved the optimum. */
  satFrom?: number;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms after which the job stops (from `timeoutSec`). */
  deadline?: number;
}

/** The best plan found so far. */
export interface BestPlan {
  t: number;
  planLength: number;
  solution: unknown;
  unique?: boolean;
  secondSolution?: unknown;
  /** Certified jobs: the proof of the uniqueness check's UNSAT answer. */
  uniqueProof?: JobProofLine;
}

/** What the job keeps of one horizon's run. */
export interface HorizonRunSize {
  vars: number;
  clauses: number;
  rounds?: number;
  solverCpuMs?: number;
  solverPeakRssKiB?: number;
  /** When the horizon raced: the configuration whose answer stands, and the others that ran. */
  config?: string;
  raced?: RacedRun[];
  /** Certified jobs: the run's DRAT proof, when its answer needed one. */
  proof?: JobProofLine;
}

/**
 * A horizon's race while it runs, by configuration (`solver/preset/seed`): when each run started
 * and, for those that ended without the answer, how.
 */
export type RaceLog = Record<
  string,
  { startedAt?: number; result?: 'unknown' | 'cancelled' | 'gave-way'; ms?: number }
>;

/**
 * A horizon split into cubes on the farm (docs/farm.md#splitting). The cubes themselves are made
 * again from `depth` when needed (`splitAtDepth`), so the state stays small.
 */
export interface SplitRecord {
  /** The run of the horizon that was split (1: the first). */
  run: number;
  depth: number;
  cubes: number;
  /** Indexes of the cubes proven UNSAT, `bound` of them by the game's lower bound at the split. */
  refuted: number[];
  bound: number;
  /** Indexes of the cubes that ended without an answer (a timeout, a failure). */
  unanswered: number[];
  /** Epoch ms of the split, and how long the horizon had run whole by then. */
  at: number;
  afterMs: number;
  /** The horizon's whole run ended without an answer: the cubes alone decide. */
  wholeEnded?: true;
  /** The cube whose plan, joined to its moves, answered the horizon. */
  answeredBy?: number;
}

/** What changes as a job runs: its status and the sweep state, stored as JSON in Redis. */
export interface JobState {
  status: JobStatus;
  sweep: SweepState;
  plan?: BestPlan;
  /**
   * Per horizon run: its formula's size, its solver calls when a lazy encoding made more than one,
   * and its solver processes' CPU time and peak memory where the worker measured them.
   */
  sizes: Record<string, HorizonRunSize>;
  /** Solver name and version, from the workers' reports. */
  solver?: string;
  /** The races of the horizons in flight, when the job races a portfolio. */
  races?: Record<string, RaceLog>;
  /** The horizons split into cubes, by horizon (docs/farm.md#splitting). */
  splits?: Record<string, SplitRecord>;
  error?: string;
  /** Epoch ms. */
  finishedAt?: number;
}

/** A job as the coordinator reads it: its meta, its state and the state's version. */
export interface JobRecord {
  meta: JobMeta;
  state: JobState;
  version: number;
}
