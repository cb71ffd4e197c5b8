import { z } from 'zod';

/** A certified run's proof: size on disk, drat-trim's time, and what became of it. */
export const ProofFiguresSchema = z.object({
  bytes: z.number().int().min(0),
  checkMs: z.number().min(0),
  result: z.enum(['verified', 'rejected', 'limit', 'error']),
});

/** Figures about one horizon's run, as the worker measured them. */
export const HorizonRunStatsSchema = z.object({
  vars: z.number().int().min(0),
  clauses: z.number().int().min(0),
  solver: z.string(),
  solverMs: z.number().min(0),
  encodeMs: z.number().min(0),
  conflicts: z.number().int().min(0).optional(),
  preset: z.enum(['sat', 'unsat']).optional(),
  /** Solver calls of a lazy encoding, when `refine` asked for more than one. */
  rounds: z.number().int().min(2).optional(),
  /** The solver processes' CPU time, ms, and largest peak resident set, KiB (native spawn host). */
  solverCpuMs: z.number().int().min(0).optional(),
  solverPeakRssKiB: z.number().int().min(0).optional(),
  /** The formula's build stopped (deadline, cancel, memory): no solver ran, vars and clauses are 0. */
  unbuilt: z.literal(true).optional(),
  /** A certified run's proof, when its answer needed one (docs/solvers.md#certified-answers). */
  proof: ProofFiguresSchema.optional(),
});
export type HorizonRunStats = z.infer<typeof HorizonRunStatsSchema>;

const reportBase = {
  jobId: z.string().min(1),
  game: z.string().min(1),
  t: z.number().int().min(0),
  /** Which worker process sent it (host:pid). */
  worker: z.string(),
  /**
   * Which run of horizon `t` it is about (1: the first; a horizon that gave way runs again);
   * absent from the reports of workers that predate it.
   */
  run: z.number().int().min(1).optional(),
  /** A portfolio sibling's rank (`HorizonJob.sibling`); absent for the horizon's own run. */
  sibling: z.number().int().min(1).optional(),
  /** The configuration that ran, `solver/preset/seed`, when the job races a portfolio. */
  config: z.string().optional(),
  /**
   * A cube's index (`HorizonJob.cube`), when the report is about one cube of split horizon `t`:
   * its plan (on SAT) is the cube's, from the cube's instance, for the coordinator to join.
   */
  cube: z.number().int().min(0).optional(),
};

/** A worker started solving a horizon. */
export const StartedReportSchema = z.object({ kind: z.literal('started'), ...reportBase, at: z.number() });

/** A horizon's run ended: an answer (SAT with a verified plan, UNSAT), no answer, or a cancel. */
export const FinishedReportSchema = z.object({
  kind: z.literal('finished'),
  ...reportBase,
  result: z.enum(['sat', 'unsat', 'unknown', 'cancelled']),
  startedAt: z.number(),
  ms: z.number().min(0),
  reason: z.string().optional(),
  plan: z.unknown().optional(),
  planLength: z.number().int().min(0).optional(),
  stats: HorizonRunStatsSchema,
  /** Single solves with `unique`: whether a second solution exists, and that solution. */
  unique: z.boolean().optional(),
  secondSolution: z.unknown().optional(),
  /** Certified single solves with `unique` true: the proof of the uniqueness check's UNSAT answer. */
  uniqueProof: ProofFiguresSchema.optional(),
  /** For a cancel: ms from the coordinator's decision to the solver's death. */
  cancelLatencyMs: z.number().min(0).optional(),
});

/** A horizon could not be solved at all (solver crash, failed verification) after its retries. */
export const FailedReportSchema = z.object({ kind: z.literal('failed'), ...reportBase, error: z.string() });

/** What workers tell the coordinator, one BullMQ job each on the reports queue. */
export const HorizonReportSchema = z.discriminatedUnion('kind', [
  StartedReportSchema,
  FinishedReportSchema,
  FailedReportSchema,
]);
export type HorizonReport = z.infer<typeof HorizonReportSchema>;
export type StartedReport = z.infer<typeof StartedReportSchema>;
export type FinishedReport = z.infer<typeof FinishedReportSchema>;
export type FailedReport = z.infer<typeof FailedReportSchema>;

/**
 * A running horizon's search so far, set as its BullMQ job's progress (`Job.updateProgress`) about
 * once a second: every coordinator reads it from the queue's events and relays it as a `running`
 * horizon event to its own websocket clients. Nothing is stored.
 */
export const HorizonProgressSchema = z.object({
  /** Milliseconds since the worker took the horizon. */
  ms: z.number().min(0),
  /** Conflicts the solver has counted so far. */
  conflicts: z.number().int().min(0),
  vars: z.number().int().min(0),
  clauses: z.number().int().min(0),
  solver: z.string(),
});
export type HorizonProgress = z.infer<typeof HorizonProgressSchema>;
