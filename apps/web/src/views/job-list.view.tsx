import type { JobResource } from '@satfarm/queue';

import { GAME_CATALOG } from '../model/game-catalog';
import { formatMs, formatTime } from './format';

/** The newest jobs: state, game, when and how long; a click opens one. */
export function JobListView({ jobs, selected }: { jobs: JobResource[]; selected?: string }) {
  if (jobs.length === 0) return <p class="muted">No jobs yet: submit one above.</p>;
  return (
    <table class="jobs" data-testid="job-list">
      <thead>
        <tr>
          <th>state</th>
          <th>game</th>
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
            <td>{GAME_CATALOG[job.game as keyof typeof GAME_CATALOG]?.label ?? job.game}</td>
            <td>{formatTime(job.createdAt)}</td>
            <td class="num">{formatMs(job.stats.wallMs)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
