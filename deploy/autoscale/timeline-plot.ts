import type { TimelineRow } from './autoscaler.js';

/**
 * The timeline as an SVG step chart: queue depth on the left axis, desired and actual replicas
 * on the right. Written by hand: three step lines and two axes need no plotting library.
 */
export function timelineSvg(rows: readonly TimelineRow[], title: string): string {
  const width = 800;
  const height = 360;
  const m = { left: 56, right: 56, top: 56, bottom: 44 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const endSec = Math.max(1, ...rows.map((r) => r.atSec));
  const maxDepth = niceCeil(1.1 * Math.max(1, ...rows.map((r) => r.metric ?? 0)));
  const maxReplicas = 1 + Math.max(1, ...rows.flatMap((r) => [r.desired, r.actual]));
  const x = (sec: number): number => m.left + (sec / endSec) * plotW;
  const yDepth = (v: number): number => m.top + plotH - (v / maxDepth) * plotH;
  const yReplicas = (v: number): number => m.top + plotH - (v / maxReplicas) * plotH;

  const steps = (value: (r: TimelineRow) => number | null, y: (v: number) => number): string => {
    const points: string[] = [];
    let last: number | null = null;
    for (const r of rows) {
      const v = value(r);
      if (v === null) continue;
      if (last !== null) points.push(`${fmt(x(r.atSec))},${fmt(y(last))}`);
      points.push(`${fmt(x(r.atSec))},${fmt(y(v))}`);
      last = v;
    }
    return points.join(' ');
  };

  const xTicks = ticks(endSec, 6).map(
    (s) =>
      `<line x1="${fmt(x(s))}" y1="${m.top + plotH}" x2="${fmt(x(s))}" y2="${m.top + plotH + 4}" stroke="#444"/>` +
      `<text x="${fmt(x(s))}" y="${m.top + plotH + 18}" text-anchor="middle">${s}</text>`,
  );
  const depthTicks = ticks(maxDepth, 5).map(
    (v) =>
      `<line x1="${m.left}" y1="${fmt(yDepth(v))}" x2="${m.left + plotW}" y2="${fmt(yDepth(v))}" stroke="#eee"/>` +
      `<text x="${m.left - 6}" y="${fmt(yDepth(v) + 4)}" text-anchor="end">${v}</text>`,
  );
  const replicaTicks = Array.from({ length: maxReplicas + 1 }, (_, v) => v).map(
    (v) => `<text x="${m.left + plotW + 6}" y="${fmt(yReplicas(v) + 4)}">${v}</text>`,
  );

  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="12">
<rect width="${width}" height="${height}" fill="#fff"/>
<text x="${width / 2}" y="20" text-anchor="middle" font-size="14">${escapeXml(title)}</text>
${depthTicks.join('\n')}
<rect x="${m.left}" y="${m.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#444"/>
${xTicks.join('\n')}
${replicaTicks.join('\n')}
<text x="${m.left + plotW / 2}" y="${height - 8}" text-anchor="middle">seconds</text>
<text transform="translate(14 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle" fill="#1f77b4">queue depth (horizons)</text>
<text transform="translate(${width - 10} ${m.top + plotH / 2}) rotate(90)" text-anchor="middle">worker replicas</text>
<polyline fill="none" stroke="#1f77b4" stroke-width="2" points="${steps((r) => r.metric, yDepth)}"/>
<polyline fill="none" stroke="#d62728" stroke-width="2" stroke-dasharray="6 3" points="${steps((r) => r.desired, yReplicas)}"/>
<polyline fill="none" stroke="#2ca02c" stroke-width="2" points="${steps((r) => r.actual, yReplicas)}"/>
<g transform="translate(${m.left} ${m.top - 12})">
<line x1="0" y1="-4" x2="20" y2="-4" stroke="#1f77b4" stroke-width="2"/><text x="26" y="0">queue depth</text>
<line x1="120" y1="-4" x2="140" y2="-4" stroke="#d62728" stroke-width="2" stroke-dasharray="6 3"/><text x="146" y="0">desired replicas</text>
<line x1="270" y1="-4" x2="290" y2="-4" stroke="#2ca02c" stroke-width="2"/><text x="296" y="0">actual replicas</text>
</g>
</svg>
`;
}

function fmt(v: number): string {
  return v.toFixed(1);
}

function niceCeil(v: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(v));
  return [1, 2, 5, 10].map((f) => f * magnitude).find((c) => c >= v)!;
}

function ticks(max: number, count: number): number[] {
  const step = niceCeil(max / count);
  const out: number[] = [];
  for (let v = 0; v <= max + 1e-9; v += step) out.push(Math.round(v));
  return out;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
}
