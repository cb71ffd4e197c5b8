import { readdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';

import { resultsPath } from './bench-options.js';
import type { SearchRow } from './level-table.js';

/** A verified plan one SAT run reported for a level. */
export interface ReportedPlan {
  moves: number;
  score?: number;
  /** Whether the run proved it the fewest moves (UNSAT one below). */
  optimal: boolean;
  /** The run's wall time in seconds (from its own start: --min-horizon runs began at a bound). */
  seconds?: number;
  plan?: string;
  source: string;
}

/** What the SAT runs of bench/results proved of one level. */
export interface LevelResults {
  /** The proven optimum, when a run proved one. */
  optimum?: number;
  /** The highest proven lower bound on the fewest moves. */
  lower: number;
  /** The first result file (in the order read) that proved `lower`. */
  lowerSource?: string;
  plans: ReportedPlan[];
}

interface Report {
  status: string;
  bounds: { lower: number };
  solution?: { moves: string[]; score?: number };
  stats?: { wallMs?: number };
  render?: { name: string };
}

interface ResultFile {
  rows?: {
    level: string;
    status: string;
    bounds?: string;
    moves?: number;
    score?: number;
    seconds?: number;
    plan?: string;
  }[];
  runs?: { level: string; report: Report }[];
}

/**
 * Reads what SAT runs proved from result files: benchmark rows, CLI runs (`runs`), or one CLI
 * report. Two files proving different optima for a level are a contradiction: `fail` is called.
 */
export function readLevelResults(
  files: string[],
  fail: (reason: string) => never,
): Map<string, LevelResults> {
  const byLevel = new Map<string, LevelResults>();
  const note = (
    level: string,
    source: string,
    status: string,
    lower: number,
    plan: Omit<ReportedPlan, 'optimal'> | undefined,
  ): void => {
    const r: LevelResults = byLevel.get(level) ?? { lower: 0, plans: [] };
    if (r.lowerSource === undefined || lower > r.lower) {
      r.lower = lower;
      r.lowerSource = source;
    }
    const optimal = status === 'optimal' && plan !== undefined;
    if (optimal) {
      if (r.optimum !== undefined && r.optimum !== plan.moves) {
        fail(`${level}: optimum ${r.optimum} in one file, ${plan.moves} in ${plan.source}`);
      }
      r.optimum = plan.moves;
    }
    if (plan !== undefined) r.plans.push({ ...plan, optimal });
    byLevel.set(level, r);
  };
  for (const file of files) {
    const source = file.replace(/^.*\//, '');
    let json: ResultFile & Partial<Report>;
    try {
      json = JSON.parse(readFileSync(file, 'utf8')) as typeof json;
    } catch (error) {
      return fail(`cannot read ${file}: ${(error as Error).message}`);
    }
    for (const r of json.rows ?? []) {
      if (r.bounds === undefined) continue;
      const plan =
        r.moves === undefined
          ? undefined
          : {
              moves: r.moves,
              source,
              ...(r.score === undefined ? {} : { score: r.score }),
              ...(r.seconds === undefined ? {} : { seconds: r.seconds }),
              ...(r.plan === undefined ? {} : { plan: r.plan }),
            };
      note(r.level, source, r.status, Number(r.bounds.split('..')[0]), plan);
    }
    const reports = (json.runs ?? []).map((r) => ({ level: r.level, report: r.report }));
    if (json.render?.name !== undefined && json.status !== undefined) {
      reports.push({ level: json.render.name, report: json as Report });
    }
    for (const { level, report } of reports) {
      const moves = report.solution?.moves;
      const plan =
        moves === undefined
          ? undefined
          : {
              moves: moves.length,
              source,
              plan: moves.join(' '),
              ...(report.solution?.score === undefined ? {} : { score: report.solution.score }),
              ...(report.stats?.wallMs === undefined
                ? {}
                : { seconds: Math.round(report.stats.wallMs / 100) / 10 }),
            };
      note(level, source, report.status, report.bounds.lower, plan);
    }
  }
  return byLevel;
}

/**
 * The SAT result files of bench/results for Hex-a-Hop (not the search's, the beam's, the custom
 * maps', nor the formula fingerprints').
 */
export function hexahopResultFiles(folder = dirname(resultsPath('hexahop'))): string[] {
  return resultFiles(
    folder,
    (f) => /^hexahop.*\.json$/.test(f) && !/^hexahop-(search|beam|custom-maps|levels|formula-hashes)/.test(f),
  );
}

/** The bounded search bench's result files of bench/results (or `folder`). */
export function boundedSearchFiles(folder = dirname(resultsPath('hexahop'))): string[] {
  return resultFiles(folder, (f) => /^hexahop-search-bounded.*\.json$/.test(f));
}

/**
 * The searches' rows of bench/results (or `folder`): the search bench's (hexahop-search.json), then
 * the bounded search's, each named by its file.
 */
export function readSearchRows(folder = dirname(resultsPath('hexahop'))): SearchRow[] {
  const rowsOf = (file: string): SearchRow[] =>
    (JSON.parse(readFileSync(file, 'utf8')) as { rows: SearchRow[] }).rows.map((row) => ({
      ...row,
      source: file.replace(/^.*\//, ''),
    }));
  return [`${folder}/hexahop-search.json`, ...boundedSearchFiles(folder)].flatMap(rowsOf);
}

/** The beam bench's result files of bench/results (or `folder`). */
export function beamResultFiles(folder = dirname(resultsPath('hexahop'))): string[] {
  return resultFiles(folder, (f) => /^hexahop-beam.*\.json$/.test(f));
}

/** The files of `folder` whose names `wanted` accepts, sorted, as paths. */
function resultFiles(folder: string, wanted: (name: string) => boolean): string[] {
  return readdirSync(folder)
    .filter(wanted)
    .sort()
    .map((f) => `${folder}/${f}`);
}

/** A row of the beam bench's result (hexahop-beam.json). */
interface BeamRow {
  level: string;
  moves?: number;
  score?: number;
  plan?: string;
}

/**
 * Adds the beam search's plans (a hexahop-beam*.json, every plan replayed when it was found) to
 * what the SAT runs proved: upper bounds, never optimal by themselves.
 */
function addBeamPlans(
  results: Map<string, LevelResults>,
  file: string,
  fail: (reason: string) => never,
): void {
  let rows: BeamRow[];
  try {
    rows = (JSON.parse(readFileSync(file, 'utf8')) as { rows: BeamRow[] }).rows;
  } catch (error) {
    return fail(`cannot read ${file}: ${(error as Error).message}`);
  }
  const source = file.replace(/^.*\//, '');
  for (const row of rows) {
    if (row.moves === undefined) continue;
    const r: LevelResults = results.get(row.level) ?? { lower: 0, plans: [] };
    r.plans.push({
      moves: row.moves,
      optimal: false,
      source,
      ...(row.score === undefined ? {} : { score: row.score }),
      ...(row.plan === undefined ? {} : { plan: row.plan }),
    });
    results.set(row.level, r);
  }
}

/** What bench/results (or `folder`) holds of every level: the SAT runs' answers and the beam's plans. */
export function readLevelRecords(
  fail: (reason: string) => never,
  folder = dirname(resultsPath('hexahop')),
): Map<string, LevelResults> {
  const results = readLevelResults(hexahopResultFiles(folder), fail);
  for (const file of beamResultFiles(folder)) addBeamPlans(results, file, fail);
  return results;
}

/**
 * The shortest plan the beam bench recorded for each level (bench/results/hexahop-beam*.json, or
 * `folder`'s), as its moves: a plan to start a sweep from (`SolveOptions.plan`).
 */
export function shortestBeamPlans(
  fail: (reason: string) => never,
  folder = dirname(resultsPath('hexahop')),
): Map<string, string> {
  const beams = new Map<string, LevelResults>();
  for (const file of beamResultFiles(folder)) addBeamPlans(beams, file, fail);
  const shortest = new Map<string, string>();
  for (const [level, { plans }] of beams) {
    const best = plans
      .filter((p) => p.plan !== undefined)
      .reduce<ReportedPlan | undefined>((a, b) => (a === undefined || b.moves < a.moves ? b : a), undefined);
    if (best?.plan !== undefined) shortest.set(level, best.plan);
  }
  return shortest;
}
