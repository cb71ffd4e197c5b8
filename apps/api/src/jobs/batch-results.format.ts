import type { JobResource } from '@satfarm/queue';

/** The columns of a batch's CSV export, in order (docs/batches.md). */
export const CSV_COLUMNS = [
  'id',
  'game',
  'summary',
  'status',
  'horizon',
  'lower',
  'upper',
  'solution',
  'verified',
  'wall_ms',
  'created_at',
  'finished_at',
  'error',
] as const;

/** One job as a CSV row: the solution as compact JSON, absent values as empty fields. */
export function csvRowOf(job: JobResource): Record<(typeof CSV_COLUMNS)[number], string> {
  return {
    id: job.id,
    game: job.game,
    summary: job.summary ?? '',
    status: job.status,
    horizon: job.horizon === undefined ? '' : String(job.horizon),
    lower: String(job.bounds.lower),
    upper: job.bounds.upper === undefined ? '' : String(job.bounds.upper),
    solution: job.solution === undefined ? '' : JSON.stringify(job.solution),
    verified: String(job.verified),
    wall_ms: String(job.stats.wallMs),
    created_at: job.createdAt,
    finished_at: job.finishedAt ?? '',
    error: job.error ?? '',
  };
}
