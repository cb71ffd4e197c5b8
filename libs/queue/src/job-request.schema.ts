import { z } from 'zod';

import { type EncodingChoicesSchema, JobOptionsSchema } from '@satfarm/games';

// A job's options are defined once, with the engine's and the CLI's (libs/games/src/job-options.ts).
export {
  EncodingChoicesSchema,
  type JobOptions,
  JobOptionsSchema,
  MAX_PORTFOLIO,
  MAX_PRIORITY,
  MAX_TIMEOUT_SEC,
  SolverNameSchema,
} from '@satfarm/games';
export type JobEncodingChoices = z.infer<typeof EncodingChoicesSchema>;

/** The body of `POST /v1/jobs`. */
export const JobRequestSchema = z.strictObject({
  game: z.string().min(1).max(32).describe('cube, snake, hexahop, towers, singles, tictactoe or cnf'),
  instance: z
    .custom<unknown>((v) => v !== undefined && v !== null, { message: 'required' })
    .describe('the instance: a JSON value, or text (DIMACS, a Tatham game ID)'),
  options: JobOptionsSchema.optional(),
});
export type JobRequest = z.infer<typeof JobRequestSchema>;

/** Most jobs in one batch. */
export const MAX_BATCH_JOBS = 1000;

/** The body of `POST /v1/batches` (docs/batches.md). */
export const BatchRequestSchema = z.strictObject({
  jobs: z.array(JobRequestSchema).min(1).max(MAX_BATCH_JOBS),
  key: z
    .string()
    .min(1)
    .max(128)
    .optional()
    .describe('idempotency key: a second request with it answers the batch the first one made'),
  label: z.string().max(200).optional().describe("the batch's name in lists"),
});
export type BatchRequest = z.infer<typeof BatchRequestSchema>;

/** The body of `POST /v1/batches/:id/jobs`: more jobs for a batch, at `offset`. */
export const BatchAppendSchema = z.strictObject({
  offset: z
    .number()
    .int()
    .min(1)
    .describe(
      "the batch's size this part starts at: a part appends only there, and one already appended answers its ids",
    ),
  jobs: z.array(JobRequestSchema).min(1).max(MAX_BATCH_JOBS),
});
export type BatchAppend = z.infer<typeof BatchAppendSchema>;
