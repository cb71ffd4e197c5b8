import { horizonElapsedMs, type JobTimeline } from '../model/job-timeline.model';
import { formatCount, formatMiB, formatMs } from './format';

const LABELS: Record<string, string> = {
  queued: 'queued',
  running: 'running',
  sat: 'SAT',
  unsat: 'UNSAT',
  unknown: 'unknown',
  cancelled: 'cancelled',
};

/**
 * One row per horizon: its state, a bar as long as it has run (growing while it runs), its time,
 * the solver's conflicts a second, and its formula (with the solver calls, where a lazy encoding
 * refined it); a split horizon shows its cubes refuted, the share of its UNSAT proof done.
 */
export function HorizonTimelineView({ timeline, now }: { timeline: JobTimeline; now: number }) {
  const elapsed = timeline.horizons.map((h) => horizonElapsedMs(h, now));
  const longest = Math.max(1, ...elapsed);
  return (
    <table class="horizons" data-testid="horizon-timeline">
      <thead>
        <tr>
          <th>T</th>
          <th>state</th>
          <th class="bar-cell">time</th>
          <th />
          <th>conflicts/s</th>
          <th>formula</th>
        </tr>
      </thead>
      <tbody>
        {timeline.horizons.map((h, i) => (
          <tr key={h.t} data-testid="horizon-row" data-t={h.t} data-state={h.state}>
            <td class="t">{h.t}</td>
            <td>
              <span class={`chip ${h.state}`}>{LABELS[h.state]}</span>
            </td>
            <td class="bar-cell">
              <div class={`bar ${h.state}`} style={{ width: `${(100 * elapsed[i]!) / longest}%` }} />
            </td>
            <td class="num">{h.state === 'queued' ? '' : formatMs(elapsed[i]!)}</td>
            <td class="num" data-testid="conflict-rate">
              {h.conflictsPerSec === undefined ? '' : formatCount(h.conflictsPerSec)}
            </td>
            <td class="num muted formula">
              {h.vars !== undefined && (
                <span class="part">{`${formatCount(h.vars)} vars · ${formatCount(h.clauses ?? 0)} clauses`}</span>
              )}
              {h.rounds !== undefined && <span class="part">{` · ${h.rounds} solver calls`}</span>}
              {h.solverCpuMs !== undefined && <span class="part">{` · ${formatMs(h.solverCpuMs)} CPU`}</span>}
              {h.solverPeakRssKiB !== undefined && (
                <span class="part">{` · ${formatMiB(h.solverPeakRssKiB)} peak`}</span>
              )}
              {h.config !== undefined && (
                <span class="part" data-testid="horizon-config">{` · ${h.config}`}</span>
              )}
              {h.split !== undefined && (
                <span class="part" data-testid="horizon-split">
                  {` · cubes refuted ${h.split.refuted}/${h.split.cubes}`}
                  {h.split.answeredBy === undefined ? '' : ` · cube ${h.split.answeredBy} answered`}
                </span>
              )}
              {h.proof !== undefined && (
                <span
                  class={`part proof ${h.proof.result}`}
                  data-testid="horizon-proof"
                  data-proof={h.proof.result}
                  title={`DRAT proof ${formatCount(h.proof.bytes)} bytes, checked in ${formatMs(h.proof.checkMs)}`}
                >
                  {h.proof.result === 'verified' ? ' · ✓ proof checked' : ` · proof ${h.proof.result}`}
                </span>
              )}
              {h.by !== undefined && <span class="part">{h.by}</span>}
              {h.reason !== undefined && (
                <span
                  class="part"
                  data-testid="horizon-reason"
                >{`${h.vars === undefined ? '' : ' · '}${h.reason}`}</span>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
