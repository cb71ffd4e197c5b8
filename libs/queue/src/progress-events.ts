import { z } from 'zod';

import type { JobStatus } from './job-resource.js';

/** The socket.io namespace of live progress. */
export const PROGRESS_NAMESPACE = '/progress';

/** Event names on `/progress`: clients emit `subscribe`, the server emits `horizon` and `job`. */
export const ProgressEvent = {
  subscribe: 'subscribe',
  unsubscribe: 'unsubscribe',
  horizon: 'horizon',
  job: 'job',
  batch: 'batch',
} as const;

/** What a client subscribes to: one job or a whole batch. */
export const SubscribeMessageSchema = z.union([
  z.strictObject({ jobId: z.string().min(1) }),
  z.strictObject({ batchId: z.string().min(1) }),
]);
export type SubscribeMessage = z.infer<typeof SubscribeMessageSchema>;

/** A horizon changed state: queued, running, sat, unsat, unknown or cancelled. */
export interface HorizonEventPayload {
  jobId: string;
  t: number;
  state: 'queued' | 'running' | 'sat' | 'unsat' | 'unknown' | 'cancelled';
  ms: number;
  /** What gave the answer when no solver run did (`given plan`: the job's `options.plan`). */
  by?: string;
  /** Why an unknown horizon has no answer, when its run said (`timeout`, `formula-limit`, ...). */
  reason?: string;
  /** The run's figures; absent where no solver ran (a plan answered, or the build stopped). */
  stats?: {
    vars: number;
    clauses: number;
    solver: string;
    conflicts?: number;
    preset?: 'sat' | 'unsat';
    /** Solver calls of a lazy encoding, when `refine` asked for more than one. */
    rounds?: number;
    /** The solver processes' CPU time, ms, and largest peak resident set, KiB. */
    solverCpuMs?: number;
    solverPeakRssKiB?: number;
    /** The configuration that answered, when the horizon raced a portfolio (`solver/preset/seed`). */
    config?: string;
  };
  /**
   * A horizon split into cubes (docs/farm.md#splitting): how many of its `cubes` are `refuted`
   * (the share of the UNSAT proof done), how many ended without an answer, and the cube whose plan
   * answered it.
   */
  split?: HorizonSplitProgress;
}

/** A split horizon's cubes, as its progress events and its job resource line give them. */
export interface HorizonSplitProgress {
  /** The moves deep its cubes were made. */
  depth: number;
  cubes: number;
  /** Cubes proven to hold no plan, `bound` of them by the game's lower bound at the split. */
  refuted: number;
  bound: number;
  /** Cubes that ended without an answer (a timeout, a formula too large, a failure). */
  unanswered: number;
  /** The cube whose plan, joined to its moves, answered the horizon. */
  answeredBy?: number;
  /** How long the horizon ran whole before it was split, ms. */
  afterMs: number;
}

/** A job's status or bounds changed; `solution` once it is known. */
export interface JobEventPayload {
  jobId: string;
  status: JobStatus;
  bounds: { lower: number; upper?: number };
  horizon?: number;
  solution?: unknown;
}

/** Socket.io room names. */
export const progressRoom = {
  job: (jobId: string): string => `job:${jobId}`,
  batch: (batchId: string): string => `batch:${batchId}`,
};
