import { createHash } from 'node:crypto';

import { type JobRequest, MAX_BATCH_JOBS } from '@satfarm/queue';

/** JSON with every object's keys sorted, so equal values have equal text whatever their key order. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    typeof v === 'object' && v !== null && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/**
 * The batch's key when `--key` gives none: the SHA-256 of its requests' canonical JSON, so the
 * same inputs with the same flags find the batch they made (docs/batches.md).
 */
export function batchKey(requests: readonly JobRequest[]): string {
  return createHash('sha256').update(canonicalJson(requests)).digest('hex');
}

/** One call's part of a batch: jobs `offset` to `end` (excluded). */
export interface BatchPart {
  offset: number;
  end: number;
}

/**
 * The parts still to append to a batch of `total` jobs that holds `size` already, at most
 * `max` jobs a call (the farm's limit), in order.
 */
export function partsToAppend(total: number, size: number, max = MAX_BATCH_JOBS): BatchPart[] {
  const parts: BatchPart[] = [];
  for (let offset = size; offset < total; offset += max)
    parts.push({ offset, end: Math.min(total, offset + max) });
  return parts;
}
