import { z } from 'zod';

import { EncodingChoicesSchema, MAX_PORTFOLIO, SolverNameSchema } from './job-request.schema.js';

/**
 * The payload of one horizon job: the instance as the client sent it (each worker parses and
 * encodes it itself) and the horizon T. Nothing else about the sweep travels through Redis.
 */
export const HorizonJobSchema = z.strictObject({
  jobId: z.string().min(1),
  game: z.string().min(1),
  instance: z.custom<unknown>((v) => v !== undefined, { message: 'required' }),
  t: z.number().int().min(0),
  solver: SolverNameSchema,
  /** Epoch ms after which the job's answer is no longer wanted (its `timeoutSec`). */
  deadline: z.number().int().positive().optional(),
  /** Single-solve games: also look for a second solution. */
  unique: z.boolean().optional(),
  /** The solver preset for this horizon, chosen by the bounds when it was queued. */
  preset: z.enum(['sat', 'unsat']).optional(),
  /**
   * A patient probe's time limit (ms): the worker stops the solver after it and answers `unknown`,
   * and the horizon gives way (the sweep's patience).
   */
  limitMs: z.number().int().positive().optional(),
  /** Which run of horizon `t` this is, when it runs again after giving way (absent: the first). */
  run: z.number().int().min(2).optional(),
  /** The job's encoding choices (`options.encoding`), checked by the game when it was created. */
  encoding: EncodingChoicesSchema.optional(),
  /**
   * A portfolio's sibling: the same horizon and run under another configuration (`solver`,
   * `preset`, `seed`), its rank in the job's portfolio (docs/farm.md#portfolio). It runs only on a
   * slot no horizon waits for, and gives its slot back when one does.
   */
  sibling: z
    .number()
    .int()
    .min(1)
    .max(MAX_PORTFOLIO - 1)
    .optional(),
  /** The solver's seed (absent: the solver's default). */
  seed: z.number().int().min(0).optional(),
  /**
   * Certified jobs (`options.certify`, or the farm's SATFARM_CERTIFY): the most bytes the run's DRAT
   * proof may take; the worker has drat-trim check the proof of an UNSAT answer before reporting it
   * (docs/solvers.md#certified-answers).
   */
  proofMaxBytes: z.number().int().positive().optional(),
  /**
   * One cube of horizon `t` split on the farm (docs/farm.md#splitting): the worker solves
   * `instance` (the game's parsed form, as the coordinator's split made it) at the cube's own
   * horizon `t`, UNSAT at once when `lowerBound` exceeds it; its reports name the cube by `index`.
   */
  cube: z
    .strictObject({
      index: z.number().int().min(0),
      t: z.number().int().min(0),
      lowerBound: z.number().int().min(0),
      instance: z.custom<unknown>((v) => v !== undefined, { message: 'required' }),
    })
    .optional(),
});
export type HorizonJob = z.infer<typeof HorizonJobSchema>;

/**
 * The BullMQ job id of horizon `t` of job `jobId`: `<jobId>.t<T>`, so that queueing a horizon twice
 * is a no-op; a later run of a horizon that gave way is `<jobId>.t<T>.r<run>` (the first run's job
 * may still be kept as completed); a portfolio's sibling of that run adds `.s<rank>`, a cube of
 * its split `.c<index>`. (BullMQ refuses custom ids with one `:`, so the separator is a dot.)
 */
export function horizonJobId(
  jobId: string,
  t: number,
  run?: number,
  sibling?: number,
  cube?: number,
): string {
  const primary = run === undefined || run <= 1 ? `${jobId}.t${t}` : `${jobId}.t${t}.r${run}`;
  if (cube !== undefined) return `${primary}.c${cube}`;
  return sibling === undefined ? primary : `${primary}.s${sibling}`;
}

/** The id of a queued horizon's job (`horizonJobId` of its payload). */
export function horizonJobIdOf(job: Pick<HorizonJob, 'jobId' | 't' | 'run' | 'sibling' | 'cube'>): string {
  return horizonJobId(job.jobId, job.t, job.run, job.sibling, job.cube?.index);
}

/**
 * The job id, horizon, run, and sibling rank or cube index of a horizon job id, or undefined for
 * another id.
 */
export function parseHorizonJobId(
  id: string,
): { jobId: string; t: number; run: number; sibling?: number; cube?: number } | undefined {
  const match = /^(.+)\.t(\d+)(?:\.r(\d+))?(?:\.s(\d+)|\.c(\d+))?$/.exec(id);
  if (match === null) return undefined;
  return {
    jobId: match[1]!,
    t: Number(match[2]),
    run: match[3] === undefined ? 1 : Number(match[3]),
    ...(match[4] === undefined ? {} : { sibling: Number(match[4]) }),
    ...(match[5] === undefined ? {} : { cube: Number(match[5]) }),
  };
}
