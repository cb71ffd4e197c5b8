import type { JobStatus } from '@satfarm/queue';

/** Jobs of a batch by status, as its summary and its `batch` events carry them. */
export type BatchCounts = Partial<Record<JobStatus, number>>;

/** How many jobs of a batch were over at one moment the page heard of it. */
export interface ProgressSample {
  /** Epoch ms when the page heard it. */
  at: number;
  /** Jobs over (any final status). */
  over: number;
}

/** A batch's pace: jobs a second, and the time left at that pace (both absent when unknown). */
export interface BatchPace {
  perSec?: number;
  etaMs?: number;
  /** Where the rate came from: the recent samples, or every job over since the batch was created. */
  basis: 'recent' | 'overall';
}

/** How far back the recent rate looks. */
export const RECENT_WINDOW_MS = 60_000;
/** The shortest span of samples the recent rate trusts; below it the overall rate stands. */
export const MIN_RECENT_SPAN_MS = 5_000;

const RUNNING: ReadonlySet<string> = new Set(['queued', 'running']);

/** Jobs over in `counts`: every status but queued and running. */
export function jobsOver(counts: BatchCounts): number {
  let over = 0;
  for (const [status, n] of Object.entries(counts)) if (!RUNNING.has(status)) over += n ?? 0;
  return over;
}

/**
 * Of two readings of a batch's counts (a `batch` event and a poll, in either order), the newer:
 * jobs only ever end, so the one with more jobs over is the later one; on a tie, `incoming`.
 */
export function newerCounts(current: BatchCounts | undefined, incoming: BatchCounts): BatchCounts {
  return current !== undefined && jobsOver(current) > jobsOver(incoming) ? current : incoming;
}

/**
 * Adds a sample and forgets those older than the recent window (keeping the newest one before
 * it, so the window's start is known), never one that goes back in `over`.
 */
export function addSample(samples: readonly ProgressSample[], sample: ProgressSample): ProgressSample[] {
  const last = samples.at(-1);
  if (last !== undefined && (sample.over < last.over || sample.at < last.at)) return [...samples];
  const kept = [...samples, sample];
  const from = sample.at - RECENT_WINDOW_MS;
  let first = 0;
  while (first + 1 < kept.length && kept[first + 1]!.at <= from) first++;
  return kept.slice(first);
}

/**
 * The pace of a batch of `size` jobs, `over` of them over, at `now`: from the recent samples when
 * they span at least {@link MIN_RECENT_SPAN_MS} (jobs over between the oldest in the window and
 * now), otherwise from every job over since `createdAt`. A finished batch: its overall rate up to
 * `finishedAt`, nothing left.
 */
export function batchPace(input: {
  size: number;
  over: number;
  createdAt: number;
  finishedAt?: number;
  samples: readonly ProgressSample[];
  now: number;
}): BatchPace {
  const { size, over, createdAt, finishedAt, samples, now } = input;
  if (finishedAt !== undefined) {
    const span = finishedAt - createdAt;
    return { basis: 'overall', etaMs: 0, ...(span > 0 ? { perSec: (1000 * size) / span } : {}) };
  }
  const first = samples[0];
  let basis: BatchPace['basis'] = 'overall';
  let perSec: number | undefined;
  if (first !== undefined && now - first.at >= MIN_RECENT_SPAN_MS) {
    basis = 'recent';
    perSec = (1000 * Math.max(0, over - first.over)) / (now - first.at);
  } else if (now > createdAt && over > 0) {
    perSec = (1000 * over) / (now - createdAt);
  }
  const left = Math.max(0, size - over);
  if (left === 0) return { basis, etaMs: 0, ...(perSec === undefined ? {} : { perSec }) };
  if (perSec === undefined || perSec <= 0) return { basis, ...(perSec === undefined ? {} : { perSec }) };
  return { basis, perSec, etaMs: (1000 * left) / perSec };
}
