import { z } from 'zod';

/** Why horizons are cancelled. */
export const CancelReasonSchema = z.enum(['dominated', 'job-cancelled', 'job-finished', 'timeout']);
export type CancelReason = z.infer<typeof CancelReasonSchema>;

/**
 * The message published on the cancel channel: every worker aborts the horizons it holds among
 * `horizonJobIds`. `decidedAt` (epoch ms) is when the coordinator decided, for the cancel-latency
 * metric.
 */
export const HorizonCancelSchema = z.object({
  horizonJobIds: z.array(z.string().min(1)).min(1),
  reason: CancelReasonSchema,
  decidedAt: z.number(),
});
export type HorizonCancel = z.infer<typeof HorizonCancelSchema>;
