import type { JobResource, JobStatus } from '@satfarm/queue';
import { useState } from 'preact/hooks';

import { useFarm } from '../api/farm-connection.context';
import { usePolling } from '../api/polling.hook';
import { GAME_CATALOG } from '../model/game-catalog';
import { pageQuery, type PageWindow, shownPage } from '../model/paging.model';
import { formatMs, formatTime } from './format';
import { PagerView } from './pager.view';
import { StatusFilterView } from './status-filter.view';

const PAGE = 25;

/** A game's name for people. */
export function gameLabel(game: string): string {
  return GAME_CATALOG[game as keyof typeof GAME_CATALOG]?.label ?? game;
}

/**
 * The jobs, newest first, 25 a page, optionally in one status: state, game and instance, when and
 * how long; a click opens one. `recent` (jobs just submitted) show on the first page before the
 * next read lists them; `live` is the status the job view last showed.
 */
export function JobListView({
  selected,
  recent,
  live,
}: {
  selected?: string;
  recent: JobResource[];
  live?: { jobId: string; status: JobStatus };
}) {
  const { api } = useFarm();
  const [window, setWindow] = useState<PageWindow>({ offset: 0, limit: PAGE });
  const [state, setState] = useState<JobStatus>();
  const asked = `${window.offset}:${state}`;
  const read = usePolling(
    async () => ({ asked, ...(await api.listJobs(pageQuery(window), state)) }),
    2000,
    `${selected}:${asked}`,
  );
  // The answer to an earlier page or filter is not this page's.
  const current = read.value?.asked === asked ? read.value : undefined;
  const page = shownPage(current?.jobs ?? [], window);
  const first = window.offset === 0 && state === undefined;
  const jobs = [
    ...(first ? recent.filter((s) => !page.items.some((j) => j.id === s.id)) : []),
    ...page.items,
  ].map((j) => (j.id === live?.jobId ? { ...j, status: live.status } : j));
  const choose = (status: JobStatus | undefined): void => {
    setState(status);
    setWindow({ offset: 0, limit: PAGE });
  };
  return (
    <div class="job-list">
      <div class="list-tools">
        <StatusFilterView value={state} onChange={choose} testId="job-filter" />
      </div>
      {jobs.length === 0 ? (
        <p class="muted">
          {current === undefined
            ? 'Loading…'
            : state === undefined
              ? 'No jobs yet: submit one above.'
              : `No ${state} jobs.`}
        </p>
      ) : (
        <table class="jobs" data-testid="job-list">
          <thead>
            <tr>
              <th>state</th>
              <th>game · instance</th>
              <th>submitted</th>
              <th class="num">time</th>
            </tr>
          </thead>
          <tbody>
            {jobs.map((job) => (
              <tr
                key={job.id}
                data-testid="job-row"
                data-job={job.id}
                data-status={job.status}
                class={job.id === selected ? 'selected' : ''}
                onClick={() => (location.hash = `#/jobs/${job.id}`)}
              >
                <td>
                  <a href={`#/jobs/${job.id}`} class={`status ${job.status}`}>
                    {job.status}
                  </a>
                </td>
                <td class="instance">
                  {gameLabel(job.game)}
                  {job.summary && (
                    <span class="summary" data-testid="job-summary" title={job.summary}>
                      {job.summary}
                    </span>
                  )}
                </td>
                <td>{formatTime(job.createdAt)}</td>
                <td class="num">{formatMs(job.stats.wallMs)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <PagerView page={page} window={window} onPage={setWindow} testId="job-pager" />
    </div>
  );
}
