import type { HorizonLine, SolveReport } from '@satfarm/engine';
import { gameById } from '@satfarm/games';

/**
 * The human view of a report: status, bounds, the solution (drawn, where the game can) and the
 * horizons tried. A single-solve game (a puzzle, raw DIMACS) has no horizons: its one solver run
 * is shown as such, without bounds.
 */
export function renderReport(report: SolveReport): string {
  const game = gameById(report.game);
  const lines: string[] = [];
  const upper = report.bounds.upper === undefined ? '-' : String(report.bounds.upper);
  const verified = `verified: ${report.verified ? 'yes' : 'no'}`;
  if (game.planning) {
    lines.push(
      `${report.game}: ${report.status}${report.horizon !== undefined ? ` at horizon ${report.horizon}` : ''}`,
    );
    lines.push(`bounds: lower ${report.bounds.lower}, upper ${upper}; ${verified}`);
  } else {
    lines.push(`${report.game}: ${report.status}; ${verified}`);
  }
  if (report.unique !== undefined) lines.push(`unique: ${report.unique ? 'yes' : 'no'}`);
  if (report.solution !== undefined) {
    // The game's own picture of the board where it has one (the JSON stays one `--json` away).
    const text = game.renderText?.(report.render);
    if (text === undefined) lines.push(`solution: ${summarize(report.solution)}`);
    else lines.push('solution:', ...text.split('\n').map((line) => `  ${line}`));
  }
  if (report.secondSolution !== undefined) lines.push(`second solution: ${summarize(report.secondSolution)}`);
  if (report.horizons.length > 0) {
    lines.push(game.planning ? 'horizons:' : 'solver run:');
    for (const h of [...report.horizons].sort((a, b) => a.t - b.t)) {
      const note = h.by ?? h.reason;
      const head = game.planning ? `t=${String(h.t).padStart(3)}  ` : '';
      lines.push(
        `  ${head}${h.result.padEnd(9)} ${String(h.ms).padStart(8)} ms${note === undefined ? '' : `  (${note})`}${usage(h)}`,
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
