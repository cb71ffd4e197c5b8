import { exitCodeFor, ExitCode } from '@satfarm/engine';
import type { JobResource } from '@satfarm/queue';

/** The CLI exit code for a job as it ended (docs/cli.md; failed is an internal error). */
export function exitCodeForJob(job: Pick<JobResource, 'status' | 'bounds'>): number {
  const { status, bounds } = job;
  if (status === 'failed') return ExitCode.internal;
  if (status === 'cancelled' || status === 'queued' || status === 'running') return ExitCode.unknown;
  return exitCodeFor({ status, bounds });
}
