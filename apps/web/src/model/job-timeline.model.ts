import type { HorizonEventPayload, JobEventPayload, JobResource, JobStatus } from '@satfarm/queue';

/** A horizon's state as the dashboard shows it. */
export type HorizonState = HorizonEventPayload['state'];

/** One horizon of a job, as last heard of. */
export interface HorizonView {
  t: number;
  state: HorizonState;
  /** Time it ran (so far, for a running one) when last heard of, in ms. */
  ms: number;
  /** The page's clock (ms) when `ms` was measured: a running horizon has run `ms + (now - at)`. */
  at: number;
  conflicts?: number;
  /** Conflicts a second: between the last two reports of a running horizon, else on average. */
  conflictsPerSec?: number;
  vars?: number;
  clauses?: number;
  /** Solver calls of a lazy encoding's run, when there was more than one. */
  rounds?: number;
  /** The finished run's solver CPU time (ms) and peak resident set (KiB), where the worker measured them. */
  solverCpuMs?: number;
  solverPeakRssKiB?: number;
  /** What gave the answer when no solver run did (`given plan`). */
  by?: string;
  /** Why an unknown horizon has no answer, when its run said (`timeout`, `formula-limit`, ...). */
  reason?: string;
  /** The configuration that answered, when the horizon raced a portfolio (`kissat/sat/3`). */
  config?: string;
  /** When the horizon was split into cubes: how many, how many refuted (the proof's progress). */
  split?: { cubes: number; refuted: number; answeredBy?: number };
  /** A certified job's checked proof of this horizon (docs/solvers.md#certified-answers). */
  proof?: { bytes: number; checkMs: number; result: string };
}

/** The bounds at one moment. */
export interface BoundsStep {
  at: number;
  lower: number;
  upper?: number;
}

/** What the job view shows: the job's status, bounds and horizons, kept up to date by events. */
export interface JobTimeline {
  jobId: string;
  status: JobStatus;
  bounds: { lower: number; upper?: number };
  /** The plan length, once there is a plan. */
  horizon?: number;
  /** Sorted by t. */
  horizons: HorizonView[];
  /** Every change of the bounds seen, oldest first. */
  boundsHistory: BoundsStep[];
}

const HORIZON_RANK: Record<HorizonState, number> = {
  queued: 0,
  running: 1,
  sat: 2,
  unsat: 2,
  unknown: 2,
  cancelled: 2,
};

const STATUS_RANK: Record<JobStatus, number> = {
  queued: 0,
  running: 1,
  optimal: 2,
  satisfiable: 2,
  unsatisfiable: 2,
  unknown: 2,
  failed: 2,
  cancelled: 2,
};

/** Whether a job in `status` is over. */
export function isJobOver(status: JobStatus): boolean {
  return STATUS_RANK[status] === 2;
}

/** Whether a horizon in `state` is over. */
export function isHorizonOver(state: HorizonState): boolean {
  return HORIZON_RANK[state] === 2;
}

/**
 * The timeline of a job resource (`GET /v1/jobs/:id`), keeping what `previous` knew that the
 * resource does not say (conflicts heard live, the bounds' history).
 */
export function timelineFromResource(job: JobResource, now: number, previous?: JobTimeline): JobTimeline {
  let timeline: JobTimeline = previous ?? {
    jobId: job.id,
    status: job.status,
    bounds: { ...job.bounds },
    horizons: [],
    boundsHistory: [{ at: now, ...job.bounds }],
  };
  for (const line of job.horizons) {
    timeline = applyHorizonEvent(
      timeline,
      {
        jobId: job.id,
        t: line.t,
        state: line.result,
        ms: line.ms,
        ...(line.by === undefined ? {} : { by: line.by }),
        ...(line.reason === undefined ? {} : { reason: line.reason }),
        ...(line.split === undefined ? {} : { split: line.split }),
      },
      now,
    );
    const measured = {
      ...(line.vars === undefined ? {} : { vars: line.vars }),
      ...(line.clauses === undefined ? {} : { clauses: line.clauses }),
      ...(line.rounds === undefined ? {} : { rounds: line.rounds }),
      ...(line.solverCpuMs === undefined ? {} : { solverCpuMs: line.solverCpuMs }),
      ...(line.solverPeakRssKiB === undefined ? {} : { solverPeakRssKiB: line.solverPeakRssKiB }),
      ...(line.config === undefined ? {} : { config: line.config }),
      ...(line.proof === undefined ? {} : { proof: line.proof }),
    };
    if (Object.keys(measured).length > 0) {
      timeline = {
        ...timeline,
        horizons: timeline.horizons.map((h) => (h.t === line.t ? { ...h, ...measured } : h)),
      };
    }
  }
  return applyJobEvent(
    timeline,
    {
      jobId: job.id,
      status: job.status,
      bounds: job.bounds,
      ...(job.horizon === undefined ? {} : { horizon: job.horizon }),
    },
    now,
  );
}

/**
 * A `horizon` event applied: a horizon only moves forward (queued, running, then one final
 * state), so an event that arrives late never undoes a newer one. The one exception mirrors the
 * sweep (`recordResult`): a SAT or UNSAT answer that raced with the horizon's cancellation is a
 * fact, and replaces `cancelled`.
 */
export function applyHorizonEvent(
  timeline: JobTimeline,
  event: HorizonEventPayload,
  now: number,
): JobTimeline {
  if (event.jobId !== timeline.jobId) return timeline;
  const old = timeline.horizons.find((h) => h.t === event.t);
  if (old !== undefined && HORIZON_RANK[event.state] < HORIZON_RANK[old.state]) return timeline;
  if (
    old !== undefined &&
    isHorizonOver(old.state) &&
    event.state !== old.state &&
    !answersCancel(old, event)
  )
    return timeline;
  const conflicts = event.stats?.conflicts ?? old?.conflicts;
  const same = old?.state === event.state ? old : undefined;
  const rounds = event.stats?.rounds ?? same?.rounds;
  const cpuMs = event.stats?.solverCpuMs ?? same?.solverCpuMs;
  const peakKiB = event.stats?.solverPeakRssKiB ?? same?.solverPeakRssKiB;
  const by = event.by ?? same?.by;
  const reason = event.reason ?? same?.reason;
  const config = event.stats?.config ?? same?.config;
  // A proof comes with the job's resource only: a later event of the same state keeps it.
  const proof = same?.proof;
  // Cubes are only ever refuted, never un-refuted: a late event keeps the larger count.
  const split =
    event.split === undefined
      ? old?.split
      : {
          cubes: event.split.cubes,
          refuted: Math.max(event.split.refuted, old?.split?.refuted ?? 0),
          ...(event.split.answeredBy === undefined ? {} : { answeredBy: event.split.answeredBy }),
        };
  const view: HorizonView = {
    t: event.t,
    state: event.state,
    ms: Math.max(event.ms, old !== undefined && old.state === event.state ? old.ms : 0),
    at: now,
    ...(conflicts === undefined ? {} : { conflicts }),
    ...(rounds === undefined ? {} : { rounds }),
    ...(cpuMs === undefined ? {} : { solverCpuMs: cpuMs }),
    ...(peakKiB === undefined ? {} : { solverPeakRssKiB: peakKiB }),
    ...(by === undefined ? {} : { by }),
    ...(reason === undefined ? {} : { reason }),
    ...(config === undefined ? {} : { config }),
    ...(split === undefined ? {} : { split }),
    ...(proof === undefined ? {} : { proof }),
    ...rate(old, event),
    ...sizes(old, event),
  };
  const horizons = [...timeline.horizons.filter((h) => h.t !== event.t), view].sort((a, b) => a.t - b.t);
  return { ...timeline, horizons };
}

function answersCancel(old: HorizonView, event: HorizonEventPayload): boolean {
  return old.state === 'cancelled' && (event.state === 'sat' || event.state === 'unsat');
}

/** A `job` event applied: the status only moves forward, the bounds only close in. */
export function applyJobEvent(timeline: JobTimeline, event: JobEventPayload, now: number): JobTimeline {
  if (event.jobId !== timeline.jobId) return timeline;
  const status =
    STATUS_RANK[event.status] >= STATUS_RANK[timeline.status] && !isJobOver(timeline.status)
      ? event.status
      : timeline.status;
  const lower = Math.max(timeline.bounds.lower, event.bounds.lower);
  const uppers = [timeline.bounds.upper, event.bounds.upper].filter((u): u is number => u !== undefined);
  const upper = uppers.length === 0 ? undefined : Math.min(...uppers);
  const bounds = upper === undefined ? { lower } : { lower, upper };
  const last = timeline.boundsHistory.at(-1);
  const boundsHistory =
    last !== undefined && last.lower === lower && last.upper === upper
      ? timeline.boundsHistory
      : [...timeline.boundsHistory, { at: now, ...bounds }];
  const horizon = event.horizon ?? timeline.horizon;
  return { ...timeline, status, bounds, boundsHistory, ...(horizon === undefined ? {} : { horizon }) };
}

/** How long a horizon has run at `now` (a running one keeps counting between reports). */
export function horizonElapsedMs(horizon: HorizonView, now: number): number {
  return horizon.state === 'running' ? horizon.ms + Math.max(0, now - horizon.at) : horizon.ms;
}

function rate(old: HorizonView | undefined, event: HorizonEventPayload): { conflictsPerSec?: number } {
  const conflicts = event.stats?.conflicts;
  if (conflicts === undefined)
    return old?.conflictsPerSec === undefined ? {} : { conflictsPerSec: old.conflictsPerSec };
  if (
    event.state === 'running' &&
    old?.conflicts !== undefined &&
    event.ms > old.ms &&
    conflicts >= old.conflicts
  )
    return { conflictsPerSec: ((conflicts - old.conflicts) * 1000) / (event.ms - old.ms) };
  // A horizon killed before the solver printed anything reports no conflicts: no rate to show.
  return event.ms > 0 && conflicts > 0 ? { conflictsPerSec: (conflicts * 1000) / event.ms } : {};
}

function sizes(
  old: HorizonView | undefined,
  event: HorizonEventPayload,
): { vars?: number; clauses?: number } {
  const vars = event.stats?.vars ?? old?.vars;
  const clauses = event.stats?.clauses ?? old?.clauses;
  return { ...(vars === undefined ? {} : { vars }), ...(clauses === undefined ? {} : { clauses }) };
}
