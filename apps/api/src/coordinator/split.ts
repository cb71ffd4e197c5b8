import type {
  FinishedReport,
  HorizonEventPayload,
  HorizonReport,
  HorizonSplitProgress,
} from '@satfarm/queue';
import { horizonRecord } from '@satfarm/sweep';

import type { JobMeta, JobState, SplitRecord } from './job-record.js';
import { horizonFinished, type JobTransition, quiet } from './job-transitions.js';
import { races } from './race.js';

/**
 * The pure transitions of a horizon split into cubes on the farm (docs/farm.md#splitting): the
 * split, each cube's answer, and the whole run's end without one. The coordinator makes the cubes
 * (the game's split) and joins a SAT cube's plan (verified from the original instance); these
 * functions only decide what the job's state becomes.
 */

/** What the coordinator's split of a horizon made: its depth, and each cube's horizon and bound. */
export interface MadeSplit {
  depth: number;
  cubes: ReadonlyArray<{ index: number; t: number; lowerBound: number }>;
  /** A plan the split met on the way (verified): the horizon's answer, with no cube. */
  plan?: { plan: unknown; planLength: number };
}

/** Why a split horizon ends without an answer: a cube ended without one, and so did the whole run. */
export const SPLIT_UNKNOWN = 'split-unknown';

/** The configuration a split's answer is credited to when the job races a portfolio. */
export const SPLIT_CONFIG = 'split';

/** The split of horizon `t` made from its run in flight, if any and the run is `run` (absent: any). */
export function splitOf(state: JobState, t: number, run?: number): SplitRecord | undefined {
  const record = horizonRecord(state.sweep, t);
  if (record?.state !== 'queued' && record?.state !== 'running') return undefined;
  const split = state.splits?.[t];
  const current = record.run ?? 1;
  if (split === undefined || split.run !== current || (run !== undefined && run !== current))
    return undefined;
  return split;
}

/** A split horizon's progress, as its events and its resource line give it. */
export function splitProgress(split: SplitRecord): HorizonSplitProgress {
  return {
    depth: split.depth,
    cubes: split.cubes,
    refuted: split.refuted.length,
    bound: split.bound,
    unanswered: split.unanswered.length,
    ...(split.answeredBy === undefined ? {} : { answeredBy: split.answeredBy }),
    afterMs: split.afterMs,
  };
}

/**
 * Horizon `t` (its run `run`) ran `options.split` seconds without an answer and was split into
 * `made`'s cubes: the ones the game's lower bound refutes are refuted at once, the others are
 * queued. Every cube refuted proves the horizon UNSAT here; a plan the split met answers it.
 * Undefined when the run is over or was split already.
 */
export function horizonSplit(
  meta: JobMeta,
  state: JobState,
  t: number,
  run: number,
  made: MadeSplit,
  now: number,
): JobTransition | undefined {
  const record = horizonRecord(state.sweep, t);
  if (record?.state !== 'running' || (record.run ?? 1) !== run || state.status !== 'running')
    return undefined;
  if (state.splits?.[t]?.run === run) return undefined;
  const startedAt = record.startedAt ?? now;
  const bound = made.cubes.filter((cube) => cube.lowerBound > cube.t).map((cube) => cube.index);
  const split: SplitRecord = {
    run,
    depth: made.depth,
    cubes: made.cubes.length,
    refuted: bound,
    bound: bound.length,
    unanswered: [],
    at: now,
    afterMs: Math.max(0, now - startedAt),
  };
  const next: JobState = { ...state, splits: { ...state.splits, [t]: split } };
  if (made.plan !== undefined) {
    return answer(meta, next, t, split, {
      result: 'sat',
      plan: made.plan.plan,
      planLength: made.plan.planLength,
      now,
    });
  }
  if (bound.length === made.cubes.length) return answer(meta, next, t, split, { result: 'unsat', now });
  const transition = quiet(next);
  transition.queueCubes = [
    { t, run, indexes: made.cubes.filter((c) => c.lowerBound <= c.t).map((c) => c.index) },
  ];
  transition.horizonEvents.push(progressEvent(meta, t, split, startedAt, now));
  return transition;
}

/**
 * A cube's report (`report.cube`): UNSAT refutes it, and the last one refuted proves the horizon
 * UNSAT; SAT answers the horizon with `joined`, the cube's plan joined to its moves and verified
 * by the coordinator; no answer (or a failure, `report` undefined) leaves the split unable to prove
 * the horizon UNSAT: it ends `unknown` (`SPLIT_UNKNOWN`) once the whole run has ended too, and
 * until then a SAT cube or the whole run may still answer. Reports of a run or split no longer in
 * flight change nothing.
 */
export function cubeEnded(
  meta: JobMeta,
  state: JobState,
  cube: { t: number; run: number | undefined; index: number },
  outcome:
    | { result: 'sat'; joined: { plan: unknown; planLength: number }; report: FinishedReport }
    | { result: 'unsat'; report: FinishedReport }
    | { result: 'unknown'; reason?: string },
  now: number,
): JobTransition | undefined {
  if (state.status !== 'running' && state.status !== 'queued') return undefined;
  const { t, index } = cube;
  const split = splitOf(state, t, cube.run);
  if (split === undefined || index >= split.cubes) return undefined;
  if (split.refuted.includes(index) || split.unanswered.includes(index)) return undefined;
  const startedAt = horizonRecord(state.sweep, t)?.startedAt ?? split.at;
  if (outcome.result === 'sat') {
    const answered: SplitRecord = { ...split, answeredBy: index };
    const next: JobState = { ...state, splits: { ...state.splits, [t]: answered } };
    return answer(meta, next, t, answered, {
      result: 'sat',
      plan: outcome.joined.plan,
      planLength: outcome.joined.planLength,
      stats: outcome.report.stats,
      now,
    });
  }
  if (outcome.result === 'unsat') {
    const refuted: SplitRecord = { ...split, refuted: [...split.refuted, index] };
    const next: JobState = { ...state, splits: { ...state.splits, [t]: refuted } };
    if (refuted.refuted.length === refuted.cubes)
      return answer(meta, next, t, refuted, { result: 'unsat', stats: outcome.report.stats, now });
    const transition = quiet(next);
    transition.horizonEvents.push(progressEvent(meta, t, refuted, startedAt, now));
    return transition;
  }
  const unanswered: SplitRecord = { ...split, unanswered: [...split.unanswered, index] };
  const next: JobState = { ...state, splits: { ...state.splits, [t]: unanswered } };
  if (unanswered.wholeEnded === true) return unknownSplit(meta, next, t, unanswered, now);
  const transition = quiet(next);
  transition.horizonEvents.push(progressEvent(meta, t, unanswered, startedAt, now));
  return transition;
}

/**
 * The whole run of a split horizon ended without an answer (no answer in its time, a failure): the
 * cubes alone decide now, and a cube already unanswered means they cannot prove it UNSAT, so the
 * horizon ends `unknown`. Undefined when `t` (its run `run`) is not split.
 */
export function wholeRunEnded(
  meta: JobMeta,
  state: JobState,
  t: number,
  run: number | undefined,
  now: number,
): JobTransition | undefined {
  const split = splitOf(state, t, run);
  if (split === undefined || split.wholeEnded === true) return undefined;
  const ended: SplitRecord = { ...split, wholeEnded: true };
  const next: JobState = { ...state, splits: { ...state.splits, [t]: ended } };
  if (ended.unanswered.length > 0) return unknownSplit(meta, next, t, ended, now);
  return quiet(next);
}

/** Whether `report` is the end without an answer of a split horizon's whole run. */
export function endsWholeRun(state: JobState, report: HorizonReport): boolean {
  if (report.sibling !== undefined || report.cube !== undefined) return false;
  if (report.kind === 'finished' && report.result !== 'unknown') return false;
  return report.kind !== 'started' && splitOf(state, report.t, report.run) !== undefined;
}

function unknownSplit(
  meta: JobMeta,
  state: JobState,
  t: number,
  split: SplitRecord,
  now: number,
): JobTransition | undefined {
  const open = split.cubes - split.refuted.length;
  return answer(meta, state, t, split, {
    result: 'unknown',
    reason: `${SPLIT_UNKNOWN}: ${split.unanswered.length} of ${open} open cubes unanswered`,
    now,
  });
}

/**
 * The split's answer of horizon `t`, applied as a worker's answer of it is (`horizonFinished`: the
 * sweep's bounds, the plan, the next horizons); its event carries the split's progress.
 */
function answer(
  meta: JobMeta,
  state: JobState,
  t: number,
  split: SplitRecord,
  how: {
    result: 'sat' | 'unsat' | 'unknown';
    plan?: unknown;
    planLength?: number;
    reason?: string;
    stats?: FinishedReport['stats'];
    now: number;
  },
): JobTransition | undefined {
  const startedAt = horizonRecord(state.sweep, t)?.startedAt ?? split.at;
  const stats = how.stats ?? {
    vars: 0,
    clauses: 0,
    solver: state.solver ?? meta.options.solver,
    solverMs: 0,
    encodeMs: 0,
    unbuilt: true as const,
  };
  const report: FinishedReport = {
    kind: 'finished',
    jobId: meta.id,
    game: meta.game,
    t,
    worker: 'coordinator',
    run: split.run,
    result: how.result,
    startedAt,
    ms: Math.max(0, how.now - startedAt),
    stats,
    ...(how.plan === undefined ? {} : { plan: how.plan, planLength: how.planLength }),
    ...(how.reason === undefined ? {} : { reason: how.reason }),
    ...(races(meta) ? { config: SPLIT_CONFIG } : {}),
  };
  const transition = horizonFinished(meta, state, report, how.now);
  if (transition === undefined) return undefined;
  const progress = splitProgress(split);
  transition.horizonEvents = transition.horizonEvents.map((event) =>
    event.t === t && event.state !== 'cancelled' ? { ...event, split: progress } : event,
  );
  return transition;
}

function progressEvent(
  meta: JobMeta,
  t: number,
  split: SplitRecord,
  startedAt: number,
  now: number,
): HorizonEventPayload {
  return {
    jobId: meta.id,
    t,
    state: 'running',
    ms: Math.max(0, now - startedAt),
    split: splitProgress(split),
  };
}

/** The indexes of a split's cubes still open: neither refuted nor ended without an answer. */
export function openCubes(split: SplitRecord): number[] {
  const ended = new Set([...split.refuted, ...split.unanswered]);
  return Array.from({ length: split.cubes }, (_, i) => i).filter((i) => !ended.has(i));
}
