import type { JobTimeline } from '../model/job-timeline.model';
import { formatMs } from './format';

/**
 * The bounds closing in: a strip of horizons (ruled out below the lower bound, a plan at and above
 * the upper bound, each tried horizon in its state's colour) and a chart of both bounds over time
 * (lower in red, rising; upper in green, falling).
 */
export function BoundsView({ timeline, now }: { timeline: JobTimeline; now: number }) {
  const { lower, upper } = timeline.bounds;
  const tried = timeline.horizons.map((h) => h.t);
  const from = Math.max(0, Math.min(lower - 1, ...tried));
  const to = Math.max(lower, upper ?? lower, ...tried) + 1;
  const states = new Map(timeline.horizons.map((h) => [h.t, h.state]));
  const verdict =
    upper !== undefined && upper === lower
      ? `optimum ${upper}, proven`
      : upper === undefined
        ? `optimum ≥ ${lower}, no plan yet`
        : `${lower} ≤ optimum ≤ ${upper}`;
  return (
    <div class="bounds" data-testid="bounds" data-lower={lower} data-upper={upper ?? ''}>
      <div class="bounds-strip">
        {Array.from({ length: to - from + 1 }, (_, i) => {
          const t = from + i;
          const zone = t < lower ? 'below' : upper !== undefined && t >= upper ? 'above' : 'open';
          const state = states.get(t);
          return (
            <div key={t} class={`bound-cell ${zone}`} title={`T = ${t}${state ? `: ${state}` : ''}`}>
              <span class={state ? `dot ${state}` : 'dot'} />
              <span class="bound-t">{t}</span>
              {t === lower && <span class="marker lower">lower</span>}
              {t === upper && <span class="marker upper">upper</span>}
            </div>
          );
        })}
      </div>
      <p class="verdict">{verdict}</p>
      <BoundsChart timeline={timeline} now={now} from={from} to={to} />
    </div>
  );
}

function BoundsChart({
  timeline,
  now,
  from,
  to,
}: {
  timeline: JobTimeline;
  now: number;
  from: number;
  to: number;
}) {
  const history = timeline.boundsHistory;
  if (history.length < 2) return null;
  const width = 320;
  const height = 90;
  const start = history[0]!.at;
  const end = Math.max(now, history.at(-1)!.at, start + 1);
  const x = (at: number): number => (width * (at - start)) / (end - start);
  const y = (t: number): number => height - 6 - ((height - 12) * (t - from)) / Math.max(1, to - from);
  const steps = (value: (s: (typeof history)[number]) => number | undefined): string => {
    const points: string[] = [];
    let last: number | undefined;
    for (const step of history) {
      const v = value(step);
      if (v === undefined) continue;
      if (last !== undefined) points.push(`${x(step.at)},${y(last)}`);
      points.push(`${x(step.at)},${y(v)}`);
      last = v;
    }
    if (last !== undefined) points.push(`${x(end)},${y(last)}`);
    return points.join(' ');
  };
  return (
    <svg
      class="bounds-chart"
      viewBox={`0 0 ${width} ${height}`}
      width={width}
      height={height}
      role="img"
      aria-label="bounds over time"
    >
      <polyline points={steps((s) => s.lower)} class="lower-line" fill="none" />
      <polyline points={steps((s) => s.upper)} class="upper-line" fill="none" />
      <text x={4} y={12} class="chart-label">
        T {to}
      </text>
      <text x={4} y={height - 4} class="chart-label">
        T {from}
      </text>
      <text x={width - 4} y={height - 4} class="chart-label" text-anchor="end">
        {formatMs(end - start)}
      </text>
    </svg>
  );
}
