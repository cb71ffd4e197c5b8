import { InputError } from '@satfarm/games';
import type { JobRequest } from '@satfarm/queue';

import type { BatchClient } from './batch-client.js';
import { partsToAppend } from './batch-plan.js';

/** A batch as submitted: its id, its size, and whether its key found it already made. */
export interface SubmittedBatch {
  batchId: string;
  size: number;
  existing: boolean;
}

/**
 * Creates the batch with its first part, then appends the rest a part a call (docs/batches.md):
 * a batch its key finds already made is grown from its size, so a second run adds nothing and an
 * interrupted one completes.
 */
export async function submitBatch(
  batches: BatchClient,
  requests: readonly JobRequest[],
  key: string,
  label: string | undefined,
): Promise<SubmittedBatch> {
  const [first] = partsToAppend(requests.length, 0);
  const created = await batches.create(requests.slice(first!.offset, first!.end), key, label);
  const existing = created.existing;
  let size = created.size;
  if (size > requests.length) {
    throw new InputError(
      'key',
      `names batch ${created.batchId} of ${size} jobs, more than the ${requests.length} given; pass another --key`,
    );
  }
  for (const part of partsToAppend(requests.length, size)) {
    const appended = await batches.append(
      created.batchId,
      part.offset,
      requests.slice(part.offset, part.end),
    );
    size = appended.size;
  }
  return { batchId: created.batchId, size, existing };
}
