import type { FarmView } from '../api/farm-api.types';
import { useNow } from '../model/job-timeline.hook';
import { workerSlots } from '../model/worker-slots.model';
import { formatMs } from './format';

/**
 * The workers: each one's name, age and slots, and the horizon each slot runs (its job, the job's
 * instance, T, for how long) or that it is idle. `farm` is the page's last read of `GET /v1/farm`.
 */
export function WorkersView({ farm }: { farm?: FarmView }) {
  const now = useNow(1000, true);
  if (farm === undefined) return <section class="panel muted">Loading the workers…</section>;
  return (
    <section class="panel workers" data-testid="workers-view">
      <h2>Workers</h2>
      {farm.workers.length === 0 && <p class="muted">No worker is connected to this farm.</p>}
      <div class="worker-cards">
        {farm.workers.map((worker) => {
          // The farm's read is up to 2 s old: its age moves on with the page's clock.
          const since = Math.max(0, now - Date.parse(farm.at));
          const slots = workerSlots(worker, now);
          return (
            <article class="worker" key={worker.name} data-testid="worker" data-worker={worker.name}>
              <header>
                <h3 class="mono">{worker.name}</h3>
                <span class="muted" title={`Redis client ${worker.addr}`}>
                  up {formatMs(worker.ageSec * 1000 + since)}
                  {' · '}
                  <span data-testid="worker-slots">
                    {worker.slots === undefined
                      ? 'slots not reported'
                      : `${worker.slots} ${worker.slots === 1 ? 'slot' : 'slots'}`}
                  </span>
                </span>
              </header>
              {slots.length === 0 ? (
                <p class="muted">No horizon running.</p>
              ) : (
                <table class="slots">
                  <thead>
                    <tr>
                      <th>slot</th>
                      <th>job</th>
                      <th>instance</th>
                      <th class="num">T</th>
                      <th class="num">running for</th>
                    </tr>
                  </thead>
                  <tbody>
                    {slots.map((slot, i) =>
                      slot.state === 'idle' ? (
                        <tr key={`idle-${i}`} data-testid="slot" data-state="idle">
                          <td class="num muted">{i + 1}</td>
                          <td colSpan={4}>
                            <span class="chip idle">idle</span>
                          </td>
                        </tr>
                      ) : (
                        <tr
                          key={`${slot.jobId}:${slot.t}`}
                          data-testid="slot"
                          data-state="running"
                          data-job={slot.jobId}
                          data-t={slot.t}
                        >
                          <td class="num muted">{i + 1}</td>
                          <td>
                            <a href={`#/jobs/${slot.jobId}`} class="mono" title={slot.jobId}>
                              {slot.jobId.slice(0, 8)}
                            </a>
                          </td>
                          <td class="summary-cell" title={slot.summary}>
                            {slot.summary ?? ''}
                          </td>
                          <td class="num t">{slot.t}</td>
                          <td class="num" data-testid="slot-running-for">
                            {formatMs(slot.runningMs)}
                          </td>
                        </tr>
                      ),
                    )}
                  </tbody>
                </table>
              )}
            </article>
          );
        })}
      </div>
    </section>
  );
}
