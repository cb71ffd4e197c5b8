import { format, resolveConfig } from 'prettier';

import type { LevelResults, ReportedPlan } from './level-results.js';

/** One level's best answer across every recorded run. */
export interface LevelLine {
  number: number;
  level: string;
  par: number;
  /**
   * optimal: a plan and UNSAT one below it (SAT runs); search: no SAT run proved it, fewest moves
   * from the search over every state; open: a lower bound, maybe a plan above it; none: no answer.
   */
  status: 'optimal' | 'open' | 'search' | 'none';
  /** The fewest moves known (proven for optimal and search). */
  moves?: number;
  /** `lower..upper` of the fewest moves (`?` for no plan). */
  bounds: string;
  /** The best score among the plans of `moves` moves. */
  score?: number;
  /**
   * Where the answer is recorded: for optimal, the fastest run that proved it and its seconds; for
   * open, the run that proved the bound (and the one with the plan).
   */
  source: string;
  plan?: string;
}

/**
 * A row of a search's result: the search bench's (hexahop-search.json), `search` the fewest moves
 * or `>d`; or the bounded search's (hexahop-search-bounded-*.json), which also gives `lower`: no
 * win has fewer moves.
 */
export interface SearchRow {
  level: string;
  search: string;
  lower?: number;
  score?: number;
  plan?: string;
  /** The result file (hexahop-search.json when not given). */
  source?: string;
}

interface CatalogLevel {
  number: number;
  name: string;
  par: number;
  supported: boolean;
}

/**
 * Each level's best answer. `problems` lists contradictions between the records: a plan shorter
 * than a proven lower bound, or a search optimum other than the SAT runs' proven one.
 */
export function levelLines(
  catalog: CatalogLevel[],
  results: Map<string, LevelResults>,
  search: SearchRow[],
): { lines: LevelLine[]; problems: string[] } {
  const problems: string[] = [];
  const lines = catalog.map((entry): LevelLine => {
    const base = { number: entry.number, level: entry.name, par: entry.par };
    const r = results.get(entry.name);
    const rows = search.filter((s) => s.level === entry.name);
    const found = rows.find((s) => /^\d+$/.test(s.search));
    const searched = found === undefined ? undefined : Number(found.search);
    // The highest bound a search proved: no win has fewer moves.
    const bounding = rows
      .filter((s) => s.lower !== undefined)
      .reduce<SearchRow | undefined>((a, b) => (a === undefined || b.lower! > a.lower! ? b : a), undefined);
    const searchLower = bounding?.lower ?? 0;
    for (const p of r?.plans ?? []) {
      if (p.moves < (r?.lower ?? 0))
        problems.push(`${entry.name}: a plan of ${p.moves} under the bound ${r!.lower} (${p.source})`);
      if (p.moves < searchLower)
        problems.push(
          `${entry.name}: a plan of ${p.moves} under the search's bound ${searchLower} (${p.source})`,
        );
    }
    if (searched !== undefined && r?.optimum !== undefined && searched !== r.optimum) {
      problems.push(`${entry.name}: search ${searched}, SAT optimum ${r.optimum}`);
    }
    if (searched !== undefined && searched < (r?.lower ?? 0)) {
      problems.push(`${entry.name}: search ${searched} under the SAT bound ${r!.lower}`);
    }
    for (const other of rows) {
      const says = /^\d+$/.test(other.search) ? Number(other.search) : undefined;
      if (says !== undefined && says !== searched)
        problems.push(`${entry.name}: search ${searched} in ${found!.source}, ${says} in ${other.source}`);
      if (searched !== undefined && other.lower !== undefined && searched < other.lower)
        problems.push(`${entry.name}: search ${searched} under the bound ${other.lower} of ${other.source}`);
    }
    if (r?.optimum !== undefined) {
      const best = bestOf(r.plans.filter((p) => p.moves === r.optimum));
      const proofs = r.plans
        .filter((p) => p.optimal)
        .sort((a, b) => (a.seconds ?? Infinity) - (b.seconds ?? Infinity));
      const proof = proofs[0]!;
      return {
        ...base,
        status: 'optimal',
        moves: r.optimum,
        bounds: `${r.optimum}..${r.optimum}`,
        ...(best.score === undefined ? {} : { score: best.score }),
        source: proof.seconds === undefined ? proof.source : `${proof.source} (${proof.seconds} s)`,
        ...(best.plan === undefined ? {} : { plan: best.plan }),
      };
    }
    if (searched !== undefined) {
      // The best score among the search's plan and the recorded plans of as many moves.
      const searchPlan: ReportedPlan = {
        moves: searched,
        optimal: false,
        source: found!.source ?? 'hexahop-search.json',
        ...(found!.score === undefined ? {} : { score: found!.score }),
        ...(found!.plan === undefined ? {} : { plan: found!.plan }),
      };
      const best = bestOf([searchPlan, ...(r?.plans ?? []).filter((p) => p.moves === searched)]);
      return {
        ...base,
        status: 'search',
        moves: searched,
        bounds: `${searched}..${searched}`,
        ...(best.score === undefined ? {} : { score: best.score }),
        source: best === searchPlan ? searchPlan.source : `${searchPlan.source}; plan: ${best.source}`,
        ...(best.plan === undefined ? {} : { plan: best.plan }),
      };
    }
    if (r === undefined) return { ...base, status: 'none', bounds: '0..?', source: '-' };
    const shortest = Math.min(...r.plans.map((p) => p.moves));
    const best = r.plans.length > 0 ? bestOf(r.plans.filter((p) => p.moves === shortest)) : undefined;
    const bySearch = bounding !== undefined && searchLower > r.lower;
    const lower = Math.max(r.lower, searchLower);
    const lowerSource = bySearch ? bounding.source : r.lowerSource;
    const source =
      best === undefined || best.source === lowerSource
        ? (lowerSource ?? '-')
        : `bound: ${lowerSource ?? '-'}; plan: ${best.source}`;
    // A search's bound that meets a plan proves the plan the fewest moves.
    const met = best !== undefined && bySearch && shortest === lower;
    return {
      ...base,
      status: met ? 'search' : 'open',
      ...(best === undefined ? {} : { moves: shortest }),
      bounds: `${lower}..${best === undefined ? '?' : shortest}`,
      ...(best?.score === undefined ? {} : { score: best.score }),
      source,
      ...(best?.plan === undefined ? {} : { plan: best.plan }),
    };
  });
  return { lines, problems };
}

/** The plan with the best (lowest) score, the first recorded among equals. */
function bestOf(plans: ReportedPlan[]): ReportedPlan {
  return plans.reduce((a, b) => ((b.score ?? Infinity) < (a.score ?? Infinity) ? b : a));
}

/** The table of docs/hexahop-levels.md. */
export function levelsMarkdown(lines: LevelLine[]): string {
  const count = (s: LevelLine['status']): number => lines.filter((l) => l.status === s).length;
  const head = [
    '# Hex-a-Hop: the fewest moves of every level',
    '',
    'Generated by `node dist/bench/hexahop/hexahop-levels.report.js` from the result files of',
    '`bench/results` (every plan replayed in the simulator when it was found). **optimal**: a plan and',
    'UNSAT one move below it, on the SAT farm; **open**: the proven lower bound and the shortest plan',
    'found (by a SAT run, or by the beam search of hexahop-beam.json: an upper bound); **search**: no',
    'SAT run has proven it, a search over the states has: over every state (hexahop-search.json), or',
    'over those an admissible bound on the moves left keeps (hexahop-search-bounded-*.json: no win',
    'within its bound, and a plan one move longer). The score is the',
    'best among the plans of that many moves; "proof" is the result file of the fastest run that',
    'proved the optimum, and its wall time (runs started with `--min-horizon` began at a bound an',
    'earlier run proved).',
    '',
    `${count('optimal')} optimal, ${count('open')} open, ${count('search')} by search only, ${count('none')} without an answer.`,
    '',
    '| # | level | par | status | moves | bounds | score | proof / source |',
    '| - | ----- | --- | ------ | ----- | ------ | ----- | -------------- |',
  ];
  const rows = lines.map(
    (l) =>
      `| ${l.number} | ${l.level} | ${l.par} | ${l.status} | ${l.moves ?? '-'} | ${l.bounds} | ${l.score ?? '-'} | ${l.source} |`,
  );
  return `${[...head, ...rows].join('\n')}\n`;
}

/** `markdown` as the repository's prettier settings print it (so the checked-in table stays as generated). */
export async function formatMarkdown(markdown: string, path: string): Promise<string> {
  const options = (await resolveConfig(path)) ?? {};
  return format(markdown, { ...options, parser: 'markdown' });
}
