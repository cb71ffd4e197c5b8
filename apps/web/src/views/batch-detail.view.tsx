import type { JobStatus } from '@satfarm/queue';
import { useState } from 'preact/hooks';

import { ApiError } from '../api/farm-api.client';
import { useFarm } from '../api/farm-connection.context';
import { usePolling } from '../api/polling.hook';
import { batchPace, jobsOver } from '../model/batch-progress.model';
import { useNow } from '../model/job-timeline.hook';
import { useLiveBatch } from '../model/live-batch.hook';
import { pageQuery, type PageWindow, shownPage } from '../model/paging.model';
import { BatchBarView } from './batch-bar.view';
import { batchName } from './batch-list.view';
import { formatDateTime, formatMs } from './format';
import { gameLabel } from './job-list.view';
import { PagerView } from './pager.view';
import { StatusFilterView, STATUSES } from './status-filter.view';

const PAGE = 50;

/**
 * One batch, live: a bar of its jobs by status, the counts, jobs a second and time left, its
 * results to download, a cancel (asked twice), and its jobs 50 a page, optionally in one status.
 */
export function BatchResourceView({ batchId }: { batchId: string }) {
  const { api } = useFarm();
  const live = useLiveBatch(batchId);
  const { batch, done } = live;
  const counts = live.counts ?? {};
  const now = useNow(1000, batch !== undefined && !done);
  const [confirming, setConfirming] = useState(false);
  const [cancelError, setCancelError] = useState<string>();
  if (live.error !== undefined && batch === undefined)
    return (
      <section class="panel">
        <p class="error" data-testid="batch-error">
          {live.error.message}
        </p>
      </section>
    );
  if (batch === undefined) return <section class="panel muted">Loading batch {batchId}…</section>;
  const over = jobsOver(counts);
  const finishedAt = done && batch.finishedAt !== null ? Date.parse(batch.finishedAt) : undefined;
  const pace = batchPace({
    size: batch.size,
    over,
    createdAt: Date.parse(batch.createdAt),
    ...(finishedAt === undefined ? {} : { finishedAt }),
    samples: live.samples,
    now,
  });
  const cancel = async (): Promise<void> => {
    setConfirming(false);
    try {
      await api.cancelBatch(batchId);
    } catch (err) {
      setCancelError(err instanceof ApiError ? err.message : String(err));
    }
  };
  const unfinished = batch.size - over;
  return (
    <section class="panel batch" data-testid="batch-detail" data-batch={batchId} data-done={String(done)}>
      <header class="batch-header">
        <h2>
          <a href="#/batches" class="crumb">
            Batches
          </a>{' '}
          › {batchName(batch)}{' '}
          <span class={`status ${done ? 'done' : 'running'}`} data-testid="batch-state">
            {done ? 'done' : 'running'}
          </span>
        </h2>
        <dl class="facts">
          <dt>batch</dt>
          <dd class="mono">{batch.batchId}</dd>
          <dt>created</dt>
          <dd>{formatDateTime(batch.createdAt)}</dd>
          {batch.finishedAt !== null && done && (
            <>
              <dt>finished</dt>
              <dd>{formatDateTime(batch.finishedAt)}</dd>
            </>
          )}
        </dl>
      </header>
      <div class="batch-progress">
        <BatchBarView size={batch.size} counts={counts} large />
        <div class="batch-figures">
          <div class="figure" data-testid="batch-over">
            <span class="value">
              {over} / {batch.size}
            </span>
            <span class="label">jobs over</span>
          </div>
          <div
            class="figure"
            data-testid="batch-rate"
            title={pace.basis === 'recent' ? 'over the last minute' : 'since the batch was created'}
          >
            <span class="value">
              {pace.perSec === undefined ? '–' : pace.perSec.toFixed(pace.perSec < 10 ? 2 : 0)}
            </span>
            <span class="label">jobs/s ({pace.basis === 'recent' ? 'last minute' : 'overall'})</span>
          </div>
          <div class="figure" data-testid="batch-eta">
            <span class="value">
              {pace.etaMs === undefined ? '–' : pace.etaMs === 0 ? 'done' : formatMs(pace.etaMs)}
            </span>
            <span class="label">time left</span>
          </div>
        </div>
        <ul class="counts" data-testid="batch-counts">
          {STATUSES.filter((s) => (counts[s] ?? 0) > 0).map((status) => (
            <li key={status} data-status={status} data-count={counts[status]}>
              <span class={`status ${status}`}>{status}</span> {counts[status]}
            </li>
          ))}
        </ul>
      </div>
      <div class="batch-actions">
        <span class="muted">Results:</span>
        <ResultsLink batchId={batchId} format="jsonl" label="JSON Lines" />
        <ResultsLink batchId={batchId} format="csv" label="CSV" />
        {!done &&
          (confirming ? (
            <span class="confirm" data-testid="cancel-confirm">
              Cancel the {unfinished} unfinished {unfinished === 1 ? 'job' : 'jobs'}?{' '}
              <button
                type="button"
                class="danger"
                data-testid="cancel-batch-yes"
                onClick={() => void cancel()}
              >
                Yes, cancel them
              </button>{' '}
              <button type="button" data-testid="cancel-batch-no" onClick={() => setConfirming(false)}>
                Keep running
              </button>
            </span>
          ) : (
            <button
              type="button"
              class="danger"
              data-testid="cancel-batch"
              onClick={() => setConfirming(true)}
            >
              Cancel batch…
            </button>
          ))}
        {cancelError && <p class="error">{cancelError}</p>}
      </div>
      <BatchJobsView batchId={batchId} counts={counts} refresh={over} />
    </section>
  );
}

/** A download of the batch's results: a plain link, fetched with the key when the farm needs one. */
function ResultsLink({
  batchId,
  format,
  label,
}: {
  batchId: string;
  format: 'jsonl' | 'csv';
  label: string;
}) {
  const { api } = useFarm();
  const url = api.resultsUrl(batchId, format);
  const file = `batch-${batchId}.${format}`;
  const keyed = async (): Promise<void> => {
    const blob = await api.download(url);
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = file;
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 0);
  };
  return (
    <a
      href={url.href}
      download={file}
      data-testid={`results-${format}`}
      onClick={(e) => {
        if (!api.keyed) return;
        e.preventDefault();
        void keyed();
      }}
    >
      {label}
    </a>
  );
}

/** The batch's jobs in submission order, a page at a time, optionally in one status. */
function BatchJobsView({
  batchId,
  counts,
  refresh,
}: {
  batchId: string;
  counts: Partial<Record<JobStatus, number>>;
  refresh: number;
}) {
  const { api } = useFarm();
  const [window, setWindow] = useState<PageWindow>({ offset: 0, limit: PAGE });
  const [state, setState] = useState<JobStatus>();
  const asked = `${window.offset}:${state}`;
  const read = usePolling(
    async () => ({ asked, ...(await api.batchJobs(batchId, pageQuery(window), state)) }),
    5000,
    `${asked}:${refresh}`,
  );
  const current = read.value?.asked === asked ? read.value : undefined;
  const page = shownPage(current?.jobs ?? [], window);
  return (
    <div class="batch-jobs">
      <div class="list-tools">
        <h3>Jobs</h3>
        <StatusFilterView
          value={state}
          counts={counts}
          testId="batch-job-filter"
          onChange={(status) => {
            setState(status);
            setWindow({ offset: 0, limit: PAGE });
          }}
        />
      </div>
      {page.items.length === 0 ? (
        <p class="muted">{current === undefined ? 'Loading…' : `No ${state ?? ''} jobs.`}</p>
      ) : (
        <table class="jobs" data-testid="batch-jobs" data-state={state ?? ''} data-offset={window.offset}>
          <thead>
            <tr>
              <th class="num">#</th>
              <th>state</th>
              <th>game</th>
              <th>instance</th>
              <th class="num">time</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((job, i) => (
              <tr
                key={job.id}
                data-testid="batch-job-row"
                data-job={job.id}
                data-status={job.status}
                onClick={() => (location.hash = `#/jobs/${job.id}`)}
              >
                <td class="num muted">{state === undefined ? window.offset + i + 1 : ''}</td>
                <td>
                  <a href={`#/jobs/${job.id}`} class={`status ${job.status}`}>
                    {job.status}
                  </a>
                </td>
                <td>{gameLabel(job.game)}</td>
                <td class="summary-cell" title={job.summary}>
                  {job.summary ?? ''}
                </td>
                <td class="num">{formatMs(job.stats.wallMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PagerView page={page} window={window} onPage={setWindow} testId="batch-job-pager" />
    </div>
  );
}
