import { z } from 'zod';

import { JobStatusSchema } from '@satfarm/queue';

const count = (max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'expected a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(0).max(max))
    .optional()
    .transform((n) => n ?? fallback);

/** The query of `GET /v1/jobs`: `state` (a job status), `offset`, `limit` (at most 500). */
export const ListJobsQuerySchema = z.object({
  state: JobStatusSchema.optional(),
  offset: count(1_000_000, 0),
  limit: count(500, 50),
});
