import type { HorizonLine, RacedRun, SolveReport, SplitStats } from '@satfarm/engine';
import { type GameDefinition, gameById } from '@satfarm/games';
import type { JobResource } from '@satfarm/queue';

/** What the human view shows: a solve's report, or a farm's job (which adds its id and error). */
export type ViewedReport = SolveReport | JobResource;

/**
 * The human view of a report: status, bounds, the solution (drawn, where the game can; a second
 * one of `--unique` too) and the horizons tried. A single-solve game (a puzzle, raw DIMACS) has no
 * horizons: its one solver run is shown as such, without bounds.
 */
export function renderReport(report: ViewedReport): string {
  const game = gameById(report.game);
  const lines: string[] = [];
  const job = 'id' in report ? report : undefined;
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
  if (job !== undefined) lines.push(`job: ${job.id}`);
  if (job?.error) lines.push(`error: ${job.error}`);
  if (report.unique !== undefined) lines.push(`unique: ${report.unique ? 'yes' : 'no'}`);
  if ('certified' in report && report.certified !== undefined)
    lines.push(
      `certified: ${report.certified ? 'yes (every decisive UNSAT proof checked by drat-trim)' : 'no'}`,
    );
  // The game's own picture of the board where it has one (the JSON stays one `--json` away).
  if (report.solution !== undefined) lines.push(...drawn(game, 'solution', report.solution, report.render));
  if (report.secondSolution !== undefined)
    lines.push(...drawn(game, 'second solution', report.secondSolution, report.secondRender));
  if (report.horizons.length > 0) {
    lines.push(game.planning ? 'horizons:' : 'solver run:');
    for (const h of [...report.horizons].sort((a, b) => a.t - b.t)) {
      const note = h.by ?? ('reason' in h ? h.reason : undefined);
      const head = game.planning ? `t=${String(h.t).padStart(3)}  ` : '';
      lines.push(
        `  ${head}${h.result.padEnd(9)} ${String(h.ms).padStart(8)} ms${note === undefined ? '' : `  (${note})`}${usage(h)}${proof(h)}${raced(h)}${split(h)}`,
      );
    }
  }
  lines.push(
    `stats: ${report.stats.vars} vars, ${report.stats.clauses} clauses, ${report.stats.solver}, ${report.stats.wallMs} ms`,
  );
  return `${lines.join('\n')}\n`;
}

/** A solution's lines under `title`: the game's drawing of `view`, else the solution's JSON. */
function drawn(game: GameDefinition, title: string, solution: unknown, view: unknown): string[] {
  const text = view === undefined ? undefined : game.renderText?.(view);
  if (text === undefined) return [`${title}: ${summarize(solution)}`];
  return [`${title}:`, ...text.split('\n').map((line) => (line === '' ? '' : `  ${line}`))];
}

/** The formula's size and the solver's CPU time and peak memory, where the report has them. */
function usage(h: Pick<HorizonLine, 'vars' | 'clauses' | 'solverCpuMs' | 'solverPeakRssKiB'>): string {
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

/** A certified run's proof: its size, drat-trim's time and verdict. */
function proof(h: object): string {
  if (!('proof' in h) || h.proof === undefined) return '';
  const line = h as { proof: { bytes: number; checkMs: number; result: string } };
  const { bytes, checkMs, result } = line.proof;
  const size =
    bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
  return `  proof: ${size}, ${result}${result === 'limit' ? '' : ` in ${checkMs} ms`}`;
}

function summarize(solution: unknown): string {
  const text = JSON.stringify(solution);
  return text.length > 400 ? `${text.slice(0, 400)}... (${text.length} characters; use --json)` : text;
}

/** A raced horizon's note: who answered, and the others with their times. */
function raced(h: object): string {
  if (!('config' in h) || typeof h.config !== 'string') return '';
  const line = h as { config: string; raced?: RacedRun[] };
  const others = (line.raced ?? []).map(
    (r) => `${r.config} ${r.result} ${r.ms} ms${r.gaveWay ? ' gave way' : ''}`,
  );
  return `  [${line.config}${others.length === 0 ? '' : `; raced ${others.join(', ')}`}]`;
}

/** A split horizon's note: its cubes, how many were refuted, and the one whose plan answered. */
function split(h: object): string {
  if (!('split' in h) || typeof h.split !== 'object' || h.split === null) return '';
  const s = h.split as SplitStats;
  const parts = [`${s.cubes} cubes at depth ${s.depth}`, `${s.refuted} refuted (${s.bound} by bound)`];
  if (s.unanswered > 0) parts.push(`${s.unanswered} unanswered`);
  if (s.answeredBy !== undefined) parts.push(`plan from cube ${s.answeredBy.index}`);
  const after = s.afterMs === undefined ? 'at once' : `after ${s.afterMs} ms whole`;
  return `  [split ${after}: ${parts.join(', ')}; ${s.ms} ms]`;
}
