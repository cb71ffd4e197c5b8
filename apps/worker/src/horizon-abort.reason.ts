/**
 * Why a running horizon's abort signal fired: a deliberate cancel from the coordinator (final),
 * or anything else (the worker shutting down, a lost lock), after which the horizon is retried.
 * BullMQ carries the reason as a string.
 */
export type HorizonAbortReason =
  { kind: 'cancel'; decidedAt: number } | { kind: 'interrupted'; detail: string };

const CANCEL_PREFIX = 'satfarm-cancel:';

/** The abort reason of a deliberate cancel decided at `decidedAt` (epoch ms). */
export function cancelAbortReason(decidedAt: number): string {
  return `${CANCEL_PREFIX}${decidedAt}`;
}

/** Reads an abort signal's reason. */
export function readAbortReason(reason: unknown): HorizonAbortReason {
  if (typeof reason === 'string' && reason.startsWith(CANCEL_PREFIX)) {
    const decidedAt = Number(reason.slice(CANCEL_PREFIX.length));
    if (Number.isFinite(decidedAt)) return { kind: 'cancel', decidedAt };
  }
  return { kind: 'interrupted', detail: reason instanceof Error ? reason.message : String(reason) };
}
