import type { JobStatus } from '@satfarm/queue';
import { useEffect, useState } from 'preact/hooks';

import { ApiError } from '../api/farm-api.client';
import { useFarm } from '../api/farm-connection.context';
import { SolutionView } from '../drawings/solution.view';
import { GAME_CATALOG } from '../model/game-catalog';
import { useLiveJob, useNow } from '../model/job-timeline.hook';
import { isJobOver } from '../model/job-timeline.model';
import { BoundsView } from './bounds.view';
import { formatMs, formatTime } from './format';
import { HorizonTimelineView } from './horizon-timeline.view';

/**
 * One job, live: status, bounds, the horizons' timeline, and the game's drawing. `onStatus` hears
 * each status the job shows (so the job list need not wait for its next read).
 */
export function JobDetailView({
  jobId,
  onStatus,
}: {
  jobId: string;
  onStatus?: (jobId: string, status: JobStatus) => void;
}) {
  const { api } = useFarm();
  const { job, timeline, error } = useLiveJob(jobId);
  const [cancelError, setCancelError] = useState<string>();
  const status: JobStatus | undefined = timeline?.status ?? job?.status;
  useEffect(() => {
    if (status !== undefined) onStatus?.(jobId, status);
  }, [jobId, status, onStatus]);
  const over = status !== undefined && isJobOver(status);
  const now = useNow(200, !over);
  if (error !== undefined && job === undefined)
    return (
      <p class="error" data-testid="job-error">
        {error.message}
      </p>
    );
  if (job === undefined || timeline === undefined || status === undefined)
    return <p class="muted">Loading {jobId}…</p>;
  const planning = GAME_CATALOG[job.game as keyof typeof GAME_CATALOG]?.planning ?? false;
  const cancel = async (): Promise<void> => {
    try {
      await api.cancel(jobId);
    } catch (err) {
      setCancelError(err instanceof ApiError ? err.message : String(err));
    }
  };
  const wallMs = over ? job.stats.wallMs : now - Date.parse(job.createdAt);
  return (
    <section
      class="job"
      data-testid="job-detail"
      data-job={job.id}
      data-status={status}
      data-drawn={job.status}
    >
      <header class="job-header">
        <h2>
          {GAME_CATALOG[job.game as keyof typeof GAME_CATALOG]?.label ?? job.game}{' '}
          <span class={`status ${status}`} data-testid="job-status">
            {status}
          </span>
          {job.certified === true && (
            <>
              {' '}
              <span
                class="badge certified"
                data-testid="job-certified"
                title="every decisive UNSAT answer's DRAT proof was checked by drat-trim"
              >
                certified
              </span>
            </>
          )}
        </h2>
        <dl class="facts">
          <dt>job</dt>
          <dd class="mono">{job.id}</dd>
          <dt>submitted</dt>
          <dd>{formatTime(job.createdAt)}</dd>
          <dt>time</dt>
          <dd>{formatMs(Math.max(0, wallMs))}</dd>
          {timeline.horizon !== undefined && (
            <>
              <dt>plan length</dt>
              <dd data-testid="plan-length">{timeline.horizon}</dd>
            </>
          )}
          {over && job.verified && (
            <>
              <dt>verified</dt>
              <dd>by the game's simulator</dd>
            </>
          )}
          {job.certified !== undefined && (
            <>
              <dt>certified</dt>
              <dd>{job.certified ? 'yes: its UNSAT answers checked by drat-trim' : 'no'}</dd>
            </>
          )}
          {job.unique !== undefined && (
            <>
              <dt>unique</dt>
              <dd>{job.unique ? 'yes' : 'no, another solution exists'}</dd>
            </>
          )}
          <dt>solver</dt>
          <dd>{job.stats.solver}</dd>
        </dl>
        {!over && (
          <button type="button" class="danger" data-testid="cancel-job" onClick={() => void cancel()}>
            Cancel
          </button>
        )}
        {cancelError && <p class="error">{cancelError}</p>}
        {job.error && <p class="error">{job.error}</p>}
      </header>
      <div class="job-body">
        <div class="job-progress">
          {planning && (
            <>
              <h3>Bounds</h3>
              <BoundsView timeline={timeline} now={now} />
            </>
          )}
          <h3>Horizons</h3>
          <HorizonTimelineView timeline={timeline} now={now} />
        </div>
        <div class="job-drawing">
          <h3>{over && job.solution !== undefined ? 'Solution' : 'Instance'}</h3>
          <SolutionView job={job} />
          {job.secondRender !== undefined && (
            <div data-testid="second-solution">
              <h3>Another solution</h3>
              <SolutionView job={{ ...job, id: `${job.id}:second`, render: job.secondRender }} />
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
