import { z } from 'zod';

import type { JobEncodingChoices } from './job-request.schema.js';
import type { HorizonSplitProgress } from './progress-events.js';

/** A job's status: `queued` and `running` while it lasts, then one of the final ones. */
export const JOB_STATUSES = [
  'queued',
  'running',
  'optimal',
  'satisfiable',
  'unsatisfiable',
  'unknown',
  'failed',
  'cancelled',
] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];
export const JobStatusSchema = z.enum(JOB_STATUSES);

/** Whether a job in `status` is over. */
export function isFinalStatus(status: JobStatus): boolean {
  return status !== 'queued' && status !== 'running';
}

/** One horizon's line, as in the CLI's report. */
export interface JobHorizonLine {
  t: number;
  result: 'queued' | 'running' | 'sat' | 'unsat' | 'unknown' | 'cancelled';
  /** The current or last run's time. */
  ms: number;
  /** Which run this is, when the horizon ran more than once (a patient probe gave way). */
  runs?: number;
  /** Solver calls of a lazy encoding's last run, when `refine` asked for more than one. */
  rounds?: number;
  /** What gave the answer when no solver run did (`given plan`: the client's `options.plan`). */
  by?: string;
  /**
   * Why an unknown horizon has no answer, when its run said: `timeout`, `limit` (a solver limit),
   * `formula-limit` (its formula outgrew `SATFARM_FORMULA_MEMORY_MIB`), `solver-unknown`.
   */
  reason?: string;
  /** The last run's solver processes: CPU time (ms) and largest peak resident set (KiB). */
  solverCpuMs?: number;
  solverPeakRssKiB?: number;
  /** The last run's formula: variables and clauses (absent while it runs, or where a plan answered). */
  vars?: number;
  clauses?: number;
  /**
   * When the horizon raced a portfolio (docs/farm.md#portfolio): the configuration whose answer
   * stands (`solver/preset/seed`), and the others that ran, with how long and how each ended.
   */
  config?: string;
  raced?: Array<{
    config: string;
    result: 'sat' | 'unsat' | 'unknown' | 'cancelled';
    ms: number;
    gaveWay?: true;
  }>;
  /** When the horizon was split into cubes (docs/farm.md#splitting): its cubes and how they ended. */
  split?: HorizonSplitProgress;
  /**
   * Certified jobs (`options.certify`): the last run's DRAT proof, when its answer needed one:
   * size, drat-trim's time, and result (docs/solvers.md#certified-answers).
   */
  proof?: JobProofLine;
}

/** A certified run's proof as a job's horizon line gives it. */
export interface JobProofLine {
  bytes: number;
  checkMs: number;
  result: 'verified' | 'rejected' | 'limit' | 'error';
}

/**
 * A job as `GET /v1/jobs/:id` returns it: the CLI's JSON report (docs/cli.md#solve) plus `id`,
 * `createdAt`, `finishedAt` and `error`. While the job runs, `horizons` shows the horizons queued
 * or running too.
 */
export interface JobResource {
  id: string;
  batchId?: string;
  game: string;
  /** The game's one-line summary of the instance: the scramble, the level's name, the grid's size. */
  summary?: string;
  status: JobStatus;
  horizon?: number;
  solution?: unknown;
  verified: boolean;
  bounds: { lower: number; upper?: number };
  /** What proves the lower bound when the sweep started at it (`options.trustBound`). */
  boundProof?: string;
  horizons: JobHorizonLine[];
  stats: { vars: number; clauses: number; solver: string; wallMs: number };
  unique?: boolean;
  secondSolution?: unknown;
  render?: unknown;
  /** The game's drawing of `secondSolution`, as `render` is of `solution`. */
  secondRender?: unknown;
  /** The job's encoding choices (`options.encoding`), when it named any. */
  encoding?: JobEncodingChoices;
  /**
   * Certified jobs: whether the answer rests on checked DRAT proofs only (docs/solvers.md#certified-answers);
   * false while the job runs. Absent when the job was not certified.
   */
  certified?: boolean;
  /** Certified jobs with `unique`: the proof of the uniqueness check's UNSAT answer. */
  uniqueProof?: JobProofLine;
  createdAt: string;
  finishedAt: string | null;
  error: string | null;
}

/** A batch as `GET /v1/batches` lists it (docs/batches.md). */
export interface BatchSummary {
  batchId: string;
  createdAt: string;
  label?: string;
  /** The idempotency key it was created with. */
  key?: string;
  /** Jobs in the batch. */
  size: number;
  /** How many of its jobs are in each status. */
  counts: Partial<Record<JobStatus, number>>;
  /** Every job is over. */
  done: boolean;
  /** When its last job ended, once every job has. */
  finishedAt: string | null;
}

/** A batch as `GET /v1/batches/:id` returns it: its summary and its job ids in order. */
export interface BatchResource extends BatchSummary {
  jobIds: string[];
}

/** What creating or growing a batch answers. */
export interface BatchCreated {
  batchId: string;
  /** The ids of the jobs of this call, in its order. */
  jobIds: string[];
  /** Jobs in the batch now. */
  size: number;
  /** The batch or the part was there already (its key or offset was used before): nothing queued. */
  existing: boolean;
}

/** The `batch` progress event. */
export interface BatchEventPayload {
  batchId: string;
  counts: Partial<Record<JobStatus, number>>;
  done: boolean;
}
