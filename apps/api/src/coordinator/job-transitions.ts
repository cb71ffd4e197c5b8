import { solverUsageOf } from '@satfarm/engine';
import {
  type FinishedReport,
  type HorizonEventPayload,
  type JobEventPayload,
  type JobStatus,
  isFinalStatus,
} from '@satfarm/queue';
import {
  ContradictoryResultError,
  horizonPolicy,
  horizonRecord,
  type KnownPlan,
  inFlightHorizons,
  markCancelled,
  markQueued,
  markStarted,
  nextRuns,
  recordResult,
  type SweepState,
  sweepBounds,
  sweepStatus,
} from '@satfarm/sweep';

import type { JobMeta, JobState } from './job-record.js';
import { type DecidedRace, decideRace, logRun, races } from './race.js';

/**
 * What the coordinator does after one event of a job: the new state, the horizons to cancel and
 * to queue, and the progress events to emit. Computed by the pure functions below from the stored
 * state, so the same decision comes out on any replica and after a restart.
 */
export interface JobTransition {
  state: JobState;
  /** Horizons that were queued or running and are not wanted any more. */
  cancel: number[];
  /** Horizons to hand to the queue. */
  enqueue: number[];
  horizonEvents: HorizonEventPayload[];
  /** Set when the status, the bounds or the plan changed. */
  jobEvent?: JobEventPayload;
  /** The job reached a final status with this transition. */
  finished: boolean;
  /** A horizon's portfolio race was decided: what the record learns from it. */
  race?: DecidedRace;
  /** Horizons that started: each is split when it runs `options.split` seconds (docs/farm.md#splitting). */
  armSplit?: number[];
  /** Cubes of split horizons to hand to the queue, by their indexes. */
  queueCubes?: Array<{ t: number; run: number; indexes: number[] }>;
}

/**
 * A horizon job (its run `run`, when the report names it) started on a worker at `at`. With a
 * portfolio its configuration is logged, for the race's record.
 */
export function horizonStarted(
  meta: JobMeta,
  state: JobState,
  t: number,
  at: number,
  run?: number,
  config?: string,
): JobTransition | undefined {
  if (isFinalStatus(state.status) || horizonRecord(state.sweep, t)?.state !== 'queued') return undefined;
  if (!ofCurrentRun(state, t, run)) return undefined;
  let next: JobState = { ...state, sweep: markStarted(state.sweep, t, at), status: 'running' };
  if (config !== undefined && races(meta)) next = logRun(next, t, config, { startedAt: at });
  const transition = quiet(next);
  transition.horizonEvents.push({ jobId: meta.id, t, state: 'running', ms: 0 });
  if (state.status !== 'running') transition.jobEvent = jobEvent(meta, next);
  if (meta.options.split !== undefined && meta.planning) transition.armSplit = [t];
  return transition;
}

/**
 * A portfolio's sibling of horizon `t` started, or ended without an answer (no answer, a failure,
 * its slot given back): only the race's log notes it. The horizon's own run decides what the sweep
 * does, so a sibling's failure costs the job nothing (docs/farm.md#portfolio).
 */
export function siblingRan(
  meta: JobMeta,
  state: JobState,
  t: number,
  run: number | undefined,
  config: string | undefined,
  entry: Parameters<typeof logRun>[3],
): JobTransition | undefined {
  if (isFinalStatus(state.status) || config === undefined || !races(meta)) return undefined;
  const record = horizonRecord(state.sweep, t);
  if ((record?.state !== 'queued' && record?.state !== 'running') || !ofCurrentRun(state, t, run))
    return undefined;
  return quiet(logRun(state, t, config, entry));
}

/**
 * A horizon's answer arrived: apply it to the sweep (bounds, dominated horizons), keep the best
 * plan, queue the next horizons, and finish the job when the sweep is decided or past its
 * deadline. A contradictory answer fails the job.
 */
export function horizonFinished(
  meta: JobMeta,
  state: JobState,
  report: FinishedReport,
  now: number,
): JobTransition | undefined {
  if (isFinalStatus(state.status)) return undefined;
  const { t } = report;
  if (report.sibling !== undefined && report.result !== 'sat' && report.result !== 'unsat') {
    const ended = report.reason === 'gave-way' ? 'gave-way' : report.result;
    return siblingRan(meta, state, t, report.run, report.config, {
      startedAt: report.startedAt,
      result: ended,
      ms: report.ms,
    });
  }
  if (report.result === 'cancelled') return undefined;
  // No answer from an earlier run (a late copy, from a worker that lost the horizon meanwhile) says
  // nothing about the run in flight; an answer is an answer, whichever run found it.
  if (report.result === 'unknown' && !ofCurrentRun(state, t, report.run)) return undefined;
  let recorded;
  try {
    recorded = recordResult(state.sweep, t, report.result, {
      at: now,
      ms: report.ms,
      planLength: report.planLength,
      reason: report.reason,
    });
  } catch (err) {
    if (err instanceof ContradictoryResultError || err instanceof RangeError)
      return jobFailed(meta, state, err.message, now);
    throw err;
  }
  if (recorded.state === state.sweep) return undefined;
  let next: JobState = {
    ...state,
    sweep: recorded.state,
    status: 'running',
    // A formula whose build stopped went to no solver: its line names none.
    sizes:
      report.stats.unbuilt === true
        ? withoutKey(state.sizes, String(t))
        : {
            ...state.sizes,
            [t]: {
              vars: report.stats.vars,
              clauses: report.stats.clauses,
              ...(report.stats.rounds === undefined ? {} : { rounds: report.stats.rounds }),
              ...solverUsageOf(report.stats),
              ...(report.stats.proof === undefined ? {} : { proof: report.stats.proof }),
            },
          },
    solver: report.stats.solver,
  };
  const improves =
    report.result === 'sat' && (state.plan === undefined || (report.planLength ?? t) < state.plan.planLength);
  if (improves) {
    next = {
      ...next,
      plan: {
        t,
        planLength: report.planLength ?? t,
        solution: report.plan,
        ...(report.unique === undefined ? {} : { unique: report.unique }),
        ...(report.secondSolution === undefined ? {} : { secondSolution: report.secondSolution }),
        ...(report.uniqueProof === undefined ? {} : { uniqueProof: report.uniqueProof }),
      },
    };
  }
  if (races(meta) && (report.result === 'sat' || report.result === 'unsat')) {
    // The race is over: its other runs stop, and the horizon's record says who ran how long.
    const { raced, race, config } = decideRace(meta, state, report);
    const { [t]: _decided, ...racing } = next.races ?? {};
    next = { ...next, races: racing, sizes: { ...next.sizes, [t]: { ...next.sizes[t]!, config, raced } } };
    const transition = advance(meta, next, now, recorded.cancel);
    if (!transition.cancel.includes(t)) transition.cancel.push(t);
    transition.race = race;
    return withAnswerEvents(meta, state, report, recorded, improves, transition);
  }
  const transition = advance(meta, next, now, recorded.cancel);
  // An earlier run's answer leaves the run in flight of `t` nothing to find: it stops too.
  const previous = horizonRecord(state.sweep, t);
  const inFlight = previous?.state === 'queued' || previous?.state === 'running';
  if (inFlight && !ofCurrentRun(state, t, report.run)) transition.cancel.push(t);
  // A split horizon answered (by its whole run, or by its cubes): the cubes still going stop.
  const split = state.splits?.[t];
  if (inFlight && split !== undefined && split.run === (previous?.run ?? 1) && !transition.cancel.includes(t))
    transition.cancel.push(t);
  return withAnswerEvents(meta, state, report, recorded, improves, transition);
}

/** `transition` with the events of `report`'s answer: the horizon's, and the job's if it changed. */
function withAnswerEvents(
  meta: JobMeta,
  state: JobState,
  report: FinishedReport,
  recorded: ReturnType<typeof recordResult>,
  improves: boolean,
  transition: JobTransition,
): JobTransition {
  const { t } = report;
  const horizonState = recorded.gaveWay ? 'cancelled' : report.result;
  transition.horizonEvents.unshift({
    jobId: meta.id,
    t,
    state: horizonState,
    ms: Math.round(report.ms),
    ...(horizonState === 'unknown' && report.reason !== undefined ? { reason: report.reason } : {}),
    ...(report.stats.unbuilt === true
      ? {}
      : {
          stats: {
            vars: report.stats.vars,
            clauses: report.stats.clauses,
            solver: report.stats.solver,
            conflicts: report.stats.conflicts,
            ...(report.stats.preset === undefined ? {} : { preset: report.stats.preset }),
            ...(report.stats.rounds === undefined ? {} : { rounds: report.stats.rounds }),
            ...solverUsageOf(report.stats),
            ...(races(meta) && report.config !== undefined ? { config: report.config } : {}),
          },
        }),
  });
  if (recorded.boundsChanged || improves || transition.finished || state.status !== 'running') {
    transition.jobEvent = jobEvent(meta, transition.state);
  }
  return transition;
}

/**
 * Run `run` of horizon `t` could not be solved at all: the job fails. A late report of an earlier
 * run (one that gave way and runs again) says nothing about the run in flight.
 */
export function horizonFailed(
  meta: JobMeta,
  state: JobState,
  t: number,
  run: number | undefined,
  error: string,
  now: number,
): JobTransition | undefined {
  return ofCurrentRun(state, t, run) ? jobFailed(meta, state, error, now) : undefined;
}

/** A horizon could not be solved at all: the job fails and its other horizons stop. */
export function jobFailed(
  meta: JobMeta,
  state: JobState,
  error: string,
  now: number,
): JobTransition | undefined {
  if (isFinalStatus(state.status)) return undefined;
  return finish(meta, { ...state, error }, 'failed', now, []);
}

/** The client cancelled the job. */
export function jobCancelled(meta: JobMeta, state: JobState, now: number): JobTransition | undefined {
  if (isFinalStatus(state.status)) return undefined;
  return finish(meta, state, 'cancelled', now, []);
}

/** The job's deadline passed: it ends with the best plan found, if any. */
export function deadlinePassed(meta: JobMeta, state: JobState, now: number): JobTransition | undefined {
  if (isFinalStatus(state.status) || meta.deadline === undefined || now < meta.deadline) return undefined;
  return finish(meta, state, state.plan ? 'satisfiable' : 'unknown', now, []);
}

/**
 * A plan found without a solver run (the client's `options.plan`, or the game's quick plan), already
 * verified: recorded as the SAT answer of its length, so the sweep only looks below it and a job
 * that times out still has it. A horizon of that length in flight stops (its answer is known), and
 * so do those above. Undefined when the job is over or already has a plan as short.
 */
export function planKnown(
  meta: JobMeta,
  state: JobState,
  known: KnownPlan<unknown>,
  now: number,
): JobTransition | undefined {
  if (isFinalStatus(state.status)) return undefined;
  if (state.plan !== undefined && state.plan.planLength <= known.length) return undefined;
  const t = known.length;
  // A SAT answer at t would have left a plan of at most t: the check above covers it.
  const previous = horizonRecord(state.sweep, t);
  let recorded;
  try {
    recorded = recordResult(state.sweep, t, 'sat', { at: now, ms: known.ms ?? 0, by: known.by });
  } catch (err) {
    if (err instanceof ContradictoryResultError) return jobFailed(meta, state, err.message, now);
    throw err;
  }
  const inFlight = previous?.state === 'queued' || previous?.state === 'running';
  const next: JobState = {
    ...state,
    sweep: recorded.state,
    plan: { t, planLength: t, solution: known.plan },
  };
  const transition = advance(meta, next, now, recorded.cancel);
  // A run of t in flight stops too; its line says sat (the event below), not cancelled.
  if (inFlight) transition.cancel.push(t);
  transition.horizonEvents.unshift({ jobId: meta.id, t, state: 'sat', ms: known.ms ?? 0, by: known.by });
  transition.jobEvent = jobEvent(meta, transition.state);
  return transition;
}

/**
 * Brings a job up to date without a new fact: queues the horizons the policy wants, finishes a
 * decided sweep. A new job starts with it, and a coordinator resuming after a restart runs it
 * for every unfinished job (a crash may have come between saving a state and queueing).
 */
export function reconcile(meta: JobMeta, state: JobState, now: number): JobTransition {
  if (isFinalStatus(state.status)) return quiet(state);
  return advance(meta, state, now, []);
}

function advance(meta: JobMeta, state: JobState, now: number, cancelled: number[]): JobTransition {
  if (meta.deadline !== undefined && now >= meta.deadline) {
    return finish(meta, state, state.plan ? 'satisfiable' : 'unknown', now, cancelled);
  }
  const status = sweepStatus(state.sweep);
  if (status !== 'running') return finish(meta, state, finalStatus(meta, state, status), now, cancelled);
  let sweep = state.sweep;
  const runs = nextRuns(sweep, horizonPolicy(sweep.policy));
  for (const { t, limitMs } of runs) sweep = markQueued(sweep, t, limitMs);
  const enqueue = runs.map((run) => run.t);
  return {
    state: { ...state, sweep },
    cancel: cancelled,
    enqueue,
    horizonEvents: cancelled.map((t) => cancelledEvent(meta, sweep, t)),
    finished: false,
  };
}

function finish(
  meta: JobMeta,
  state: JobState,
  status: JobStatus,
  now: number,
  cancelled: number[],
): JobTransition {
  let sweep: SweepState = state.sweep;
  const stopping = inFlightHorizons(sweep);
  for (const t of stopping) sweep = markCancelled(sweep, t, now);
  const cancel = [...cancelled, ...stopping];
  const next: JobState = { ...state, sweep, status, finishedAt: now };
  return {
    state: next,
    cancel,
    enqueue: [],
    horizonEvents: cancel.map((t) => cancelledEvent(meta, sweep, t)),
    jobEvent: jobEvent(meta, next),
    finished: true,
  };
}

function finalStatus(
  meta: JobMeta,
  state: JobState,
  sweep: 'optimal' | 'unsatisfiable' | 'unknown',
): JobStatus {
  if (sweep === 'optimal') return meta.planning ? 'optimal' : 'satisfiable';
  if (sweep === 'unsatisfiable') return 'unsatisfiable';
  return state.plan ? 'satisfiable' : 'unknown';
}

function cancelledEvent(meta: JobMeta, sweep: SweepState, t: number): HorizonEventPayload {
  return { jobId: meta.id, t, state: 'cancelled', ms: Math.round(horizonRecord(sweep, t)?.ms ?? 0) };
}

/** `state` with nothing to cancel, queue or tell. */
export function quiet(state: JobState): JobTransition {
  return { state, cancel: [], enqueue: [], horizonEvents: [], finished: false };
}

/** The `job` progress event of a job in `state`. */
export function jobEvent(meta: JobMeta, state: JobState): JobEventPayload {
  const event: JobEventPayload = { jobId: meta.id, status: state.status, bounds: jobBounds(meta, state) };
  if (state.plan !== undefined) {
    if (meta.planning) event.horizon = state.plan.planLength;
    event.solution = state.plan.solution;
  }
  return event;
}

/** A job's bounds as the CLI reports them (a single solve: lower 0, upper 0 once solved). */
export function jobBounds(meta: JobMeta, state: JobState): { lower: number; upper?: number } {
  if (!meta.planning) return state.plan ? { lower: 0, upper: 0 } : { lower: 0 };
  return sweepBounds(state.sweep);
}

/** Whether `run` (1 for the first; undefined when the report does not say) is `t`'s latest run. */
function ofCurrentRun(state: JobState, t: number, run: number | undefined): boolean {
  return run === undefined || run === (horizonRecord(state.sweep, t)?.run ?? 1);
}

function withoutKey<V>(record: Record<string, V>, key: string): Record<string, V> {
  const { [key]: _dropped, ...rest } = record;
  return rest;
}
