import type { JobStatus } from '@satfarm/queue';

import type { BatchCounts } from '../model/batch-progress.model';

/** Every job status, in the order a job goes through them (the API's list, docs/farm.md). */
export const STATUSES = [
  'queued',
  'running',
  'optimal',
  'satisfiable',
  'unsatisfiable',
  'unknown',
  'failed',
  'cancelled',
] as const satisfies readonly JobStatus[];

/** A choice of one status or all, with each status's count when known. */
export function StatusFilterView({
  value,
  onChange,
  counts,
  testId,
}: {
  value?: JobStatus;
  onChange: (status: JobStatus | undefined) => void;
  counts?: BatchCounts;
  testId: string;
}) {
  return (
    <select
      class="status-filter"
      data-testid={testId}
      value={value ?? ''}
      onChange={(e) => {
        const chosen = e.currentTarget.value;
        onChange(chosen === '' ? undefined : (chosen as JobStatus));
      }}
    >
      <option value="">every status</option>
      {STATUSES.map((status) => (
        <option key={status} value={status}>
          {counts === undefined ? status : `${status} (${counts[status] ?? 0})`}
        </option>
      ))}
    </select>
  );
}
