import { z } from 'zod';

import { JobStatusSchema } from '@satfarm/queue';

const count = (min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, 'expected a non-negative integer')
    .transform(Number)
    .pipe(z.number().int().min(min).max(max))
    .optional()
    .transform((n) => n ?? fallback);

/**
 * The query of `GET /v1/jobs`: `state` (a job status), `offset`, `limit` (1 to 500). Any other
 * parameter is refused, as unknown body fields are: a misspelt one would be ignored unseen.
 */
export const ListJobsQuerySchema = z.strictObject({
  state: JobStatusSchema.optional(),
  offset: count(0, 1_000_000, 0),
  limit: count(1, 500, 50),
});

/** The query of `GET /v1/batches`: `offset`, `limit` (1 to 500). */
export const ListBatchesQuerySchema = z.strictObject({
  offset: count(0, 1_000_000, 0),
  limit: count(1, 500, 50),
});

/** The query of `GET /v1/batches/:id/results`: `format`, `jsonl` (default) or `csv`. */
export const BatchResultsQuerySchema = z.strictObject({
  format: z
    .enum(['jsonl', 'csv'])
    .optional()
    .transform((f) => f ?? 'jsonl'),
});
