import type { BatchCounts } from '../model/batch-progress.model';
import { STATUSES } from './status-filter.view';

/** A batch's jobs as one bar, a segment per status in its colour; queued jobs are the track. */
export function BatchBarView({
  size,
  counts,
  large = false,
}: {
  size: number;
  counts: BatchCounts;
  large?: boolean;
}) {
  return (
    <div class={large ? 'batch-bar large' : 'batch-bar'} data-testid="batch-bar">
      {STATUSES.filter((s) => s !== 'queued' && (counts[s] ?? 0) > 0).map((status) => (
        <div
          key={status}
          class={`segment ${status}`}
          title={`${status}: ${counts[status]}`}
          style={{ width: `${(100 * (counts[status] ?? 0)) / Math.max(1, size)}%` }}
        />
      ))}
    </div>
  );
}
