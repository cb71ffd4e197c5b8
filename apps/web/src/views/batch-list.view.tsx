import { useState } from 'preact/hooks';

import { useFarm } from '../api/farm-connection.context';
import type { BatchSummary } from '@satfarm/queue';
import { usePolling } from '../api/polling.hook';
import { jobsOver } from '../model/batch-progress.model';
import { pageQuery, type PageWindow, shownPage } from '../model/paging.model';
import { BatchBarView } from './batch-bar.view';
import { formatDateTime } from './format';
import { PagerView } from './pager.view';

const PAGE = 25;

/** A batch's name for people: its label, else the start of its id. */
export function batchName(batch: Pick<BatchSummary, 'batchId' | 'label'>): string {
  return batch.label ?? batch.batchId.slice(0, 8);
}

/** The batches, newest first, 25 a page: name, when, size, progress; a click opens one. */
export function BatchListView() {
  const { api } = useFarm();
  const [window, setWindow] = useState<PageWindow>({ offset: 0, limit: PAGE });
  const read = usePolling(
    async () => ({ asked: window.offset, ...(await api.listBatches(pageQuery(window))) }),
    2000,
    window.offset,
  );
  const current = read.value?.asked === window.offset ? read.value : undefined;
  const page = shownPage(current?.batches ?? [], window);
  return (
    <section class="panel batches" data-testid="batch-list">
      <h2>Batches</h2>
      {read.error && <p class="error">{read.error.message}</p>}
      {page.items.length === 0 ? (
        <p class="muted">
          {current === undefined
            ? 'Loading…'
            : 'No batches yet: submit one with satfarm batch submit, or POST /v1/batches (docs/batches.md).'}
        </p>
      ) : (
        <table class="jobs batch-table">
          <thead>
            <tr>
              <th>batch</th>
              <th>created</th>
              <th class="num">jobs</th>
              <th class="progress-cell">progress</th>
              <th class="num">over</th>
              <th>state</th>
            </tr>
          </thead>
          <tbody>
            {page.items.map((batch) => {
              const over = jobsOver(batch.counts);
              return (
                <tr
                  key={batch.batchId}
                  data-testid="batch-row"
                  data-batch={batch.batchId}
                  data-done={String(batch.done)}
                  onClick={() => (location.hash = `#/batches/${batch.batchId}`)}
                >
                  <td>
                    <a href={`#/batches/${batch.batchId}`} title={batch.batchId}>
                      {batchName(batch)}
                    </a>
                  </td>
                  <td>{formatDateTime(batch.createdAt)}</td>
                  <td class="num">{batch.size}</td>
                  <td class="progress-cell">
                    <BatchBarView size={batch.size} counts={batch.counts} />
                  </td>
                  <td class="num">{`${over} / ${batch.size}`}</td>
                  <td>
                    <span
                      class={`status ${batch.done ? 'optimal' : (batch.counts.running ?? 0) > 0 ? 'running' : 'queued'}`}
                    >
                      {batch.done ? 'done' : (batch.counts.running ?? 0) > 0 ? 'running' : 'queued'}
                    </span>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      <PagerView page={page} window={window} onPage={setWindow} testId="batch-pager" />
    </section>
  );
}
