import type { HorizonLine, SolveReport } from '@satfarm/engine';
import { gameById } from '@satfarm/games';

/** The human view of a report: status, bounds, the solution (drawn, where the game can) and the horizons tried. */
export function renderReport(report: SolveReport): string {
  const lines: string[] = [];
  const upper = report.bounds.upper === undefined ? '-' : String(report.bounds.upper);
  lines.push(
    `${report.game}: ${report.status}${report.horizon !== undefined ? ` at horizon ${report.horizon}` : ''}`,
  );
  lines.push(
    `bounds: lower ${report.bounds.lower}, upper ${upper}; verified: ${report.verified ? 'yes' : 'no'}`,
  );
  if (report.unique !== undefined) lines.push(`unique: ${report.unique ? 'yes' : 'no'}`);
  if (report.solution !== undefined) {
    // The game's own picture of the board where it has one (the JSON stays one `--json` away).
    const text = gameById(report.game).renderText?.(report.render);
    if (text === undefined) lines.push(`solution: ${summarize(report.solution)}`);
    else lines.push('solution:', ...text.split('\n').map((line) => `  ${line}`));
  }
  if (report.secondSolution !== undefined) lines.push(`second solution: ${summarize(report.secondSolution)}`);
  if (report.horizons.length > 0) {
    lines.push('horizons:');
    for (const h of [...report.horizons].sort((a, b) => a.t - b.t)) {
      const note = h.by ?? h.reason;
      lines.push(
        `  t=${String(h.t).padStart(3)}  ${h.result.padEnd(9)} ${String(h.ms).padStart(8)} ms${note === undefined ? '' : `  (${note})`}${usage(h)}`,
      );
    }
  }
  lines.push(
    `stats: ${report.stats.vars} vars, ${report.stats.clauses} clauses, ${report.stats.solver}, ${report.stats.wallMs} ms`,
  );
  return `${lines.join('\n')}\n`;
}

/** The formula's size and the solver's CPU time and peak memory, where the report has them. */
function usage(h: HorizonLine): string {
  const parts: string[] = [];
  if (h.vars !== undefined && h.clauses !== undefined)
    parts.push(`formula: ${h.vars} vars, ${h.clauses} clauses`);
  const solver: string[] = [];
  const cpu = h.solverCpuMs;
  if (cpu !== undefined) solver.push(cpu < 1000 ? `${cpu} ms CPU` : `${(cpu / 1000).toFixed(1)} s CPU`);
  if (h.solverPeakRssKiB !== undefined) solver.push(`${Math.round(h.solverPeakRssKiB / 1024)} MiB peak`);
  if (solver.length > 0) parts.push(`solver: ${solver.join(', ')}`);
  return parts.length === 0 ? '' : `  ${parts.join('; ')}`;
}

function summarize(solution: unknown): string {
  const text = JSON.stringify(solution);
  return text.length > 400 ? `${text.slice(0, 400)}... (${text.length} characters; use --json)` : text;
}
