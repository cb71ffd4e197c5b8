import { ExitCode } from '@satfarm/engine';
import { type BatchEventPayload, type BatchSummary, type JobStatus, ProgressEvent } from '@satfarm/queue';

import type { BatchClient } from './batch-client.js';
import type { BatchProgressView } from './batch-progress.js';
import { FarmUnreachableError } from './farm-client.js';
import { exitCodeForJob } from './job-exit-code.js';

/** How often the batch is read while following: the guarantee when an event goes missing. */
const POLL_MS = 1000;

/**
 * Follows a batch to its end: shows each `batch` event of the websocket as it comes, and reads
 * the batch every second besides, so a missed event (or a farm without them) cannot hang it.
 * Answers the batch as it ended.
 */
export async function followBatch(
  batches: BatchClient,
  batchId: string,
  view: BatchProgressView,
): Promise<BatchSummary> {
  const socket = await batches.farm.connectProgress().catch((err: unknown) => {
    // Polling alone still follows the batch; an unreachable farm shows in the first read.
    if (err instanceof FarmUnreachableError) return undefined;
    throw err;
  });
  let latest: BatchSummary | undefined;
  let wake = (): void => {};
  const subscribe = (): void => {
    void socket?.emitWithAck(ProgressEvent.subscribe, { batchId }).catch(() => undefined);
  };
  socket?.on(ProgressEvent.batch, (e: BatchEventPayload) => {
    if (e.batchId !== batchId || latest === undefined) return;
    latest = { ...latest, counts: e.counts, done: e.done };
    view.update(latest);
    if (e.done) wake();
  });
  socket?.io.on('reconnect', subscribe);
  subscribe();
  try {
    for (;;) {
      latest = await batches.get(batchId);
      view.update(latest);
      if (latest.done) return latest;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, POLL_MS);
        wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
  } finally {
    socket?.close();
    view.stop();
  }
}

/** Statuses that end a job unanswered, or leave it unfinished: any of them makes a batch exit 3. */
const UNANSWERED: readonly JobStatus[] = ['queued', 'running', 'unknown', 'failed', 'cancelled'];

/**
 * What a batch's counts say of its exit code (docs/cli.md): `unanswered` (exit 3) when a job
 * ended without an answer or has not ended, `answered` (exit 0) when every job is `optimal` or
 * `unsatisfiable`, and `check-plans` when some are `satisfiable`: answered for a single-solve
 * game, but for a planning game a plan whose optimality may be unproven, which only the job's
 * bounds tell.
 */
export function batchOutcome(counts: BatchSummary['counts']): 'answered' | 'unanswered' | 'check-plans' {
  if (UNANSWERED.some((status) => (counts[status] ?? 0) > 0)) return 'unanswered';
  return (counts.satisfiable ?? 0) > 0 ? 'check-plans' : 'answered';
}

/**
 * The exit code of a followed batch: 0 when every job would have made `submit` exit 0 or 1 (a
 * solution, a proven optimum, or a proof that there is none), else 3.
 */
export async function batchExitCode(batches: BatchClient, summary: BatchSummary): Promise<number> {
  const outcome = batchOutcome(summary.counts);
  if (outcome !== 'check-plans') return outcome === 'answered' ? ExitCode.solved : ExitCode.unknown;
  for await (const job of batches.jobs(summary.batchId, 'satisfiable')) {
    const code = exitCodeForJob(job);
    if (code !== ExitCode.solved && code !== ExitCode.noSolution) return ExitCode.unknown;
  }
  return ExitCode.solved;
}
