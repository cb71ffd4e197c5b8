import { describe, expect, it } from 'vitest';

import type { FinishedReport } from '@satfarm/queue';
import { horizonPolicy, initSweepState, patienceMsOf } from '@satfarm/sweep';

import type { JobMeta, JobState } from './job-record.js';
import { buildJobResource } from './job-resource.builder.js';
import {
  deadlinePassed,
  horizonFinished,
  horizonStarted,
  jobCancelled,
  type JobTransition,
  planKnown,
  reconcile,
} from './job-transitions.js';

const NOW = 1_000_000;

function meta(overrides: Partial<JobMeta> = {}): JobMeta {
  return {
    id: 'job-1',
    game: 'staircase',
    planning: true,
    options: {
      maxHorizon: 10,
      parallelism: 2,
      solver: 'kissat',
      priority: 0,
      unique: false,
      policy: 'consecutive',
      presets: false,
    },
    createdAt: NOW - 1000,
    lowerBound: 3,
    ...overrides,
  };
}

/** A job as stored before anything is queued. */
function freshJob(m: JobMeta): JobState {
  const sweep = initSweepState({
    lower: m.lowerBound,
    max: m.options.maxHorizon,
    parallelism: m.options.parallelism,
    policy: horizonPolicy(m.options.policy),
    ...(m.options.patienceSec === undefined ? {} : { patienceMs: patienceMsOf(m.options.patienceSec) }),
  });
  return { status: 'queued', sweep, sizes: {} };
}

function newJob(m: JobMeta = meta()): JobTransition {
  return reconcile(m, freshJob(m), NOW);
}

function report(
  t: number,
  result: FinishedReport['result'],
  extra: Partial<FinishedReport> = {},
): FinishedReport {
  return {
    kind: 'finished',
    jobId: 'job-1',
    game: 'staircase',
    t,
    worker: 'w:1',
    result,
    startedAt: NOW,
    ms: 40,
    stats: { vars: 10 * t, clauses: 20 * t, solver: 'kissat 4.0.2', solverMs: 30, encodeMs: 1 },
    ...(result === 'sat' ? { plan: { steps: t } } : {}),
    ...extra,
  };
}

/** Applies `step` and fails the test if it decided nothing. */
function applied(transition: JobTransition | undefined): JobTransition {
  expect(transition).toBeDefined();
  return transition!;
}

describe(reconcile.name, () => {
  it('queues `parallelism` horizons from the lower bound of a new job', () => {
    const sut = newJob();
    expect(sut.enqueue).toEqual([3, 4]);
    expect(sut.state.sweep.horizons.map((h) => [h.t, h.state])).toEqual([
      [3, 'queued'],
      [4, 'queued'],
    ]);
    expect(sut.finished).toBe(false);
  });

  it('finishes at once a job whose lower bound is above its horizon cap', () => {
    const sut = newJob(meta({ lowerBound: 12 }));
    expect(sut.finished).toBe(true);
    expect(sut.state.status).toBe('unsatisfiable');
    expect(sut.enqueue).toEqual([]);
  });
});

describe(horizonFinished.name, () => {
  it('raises the lower bound on UNSAT, cancels what it dominates and queues the next horizons', () => {
    const m = meta();
    const start = newJob(m).state;
    const sut = applied(horizonFinished(m, start, report(4, 'unsat'), NOW));
    expect(sut.cancel).toEqual([3]);
    expect(sut.enqueue).toEqual([5, 6]);
    expect(sut.jobEvent).toMatchObject({ status: 'running', bounds: { lower: 5 } });
    expect(sut.horizonEvents.map((e) => [e.t, e.state])).toEqual([
      [4, 'unsat'],
      [3, 'cancelled'],
    ]);
  });

  it('finishes optimal with the plan once the answer below the best plan is UNSAT', () => {
    const m = meta();
    let state = newJob(m).state;
    state = applied(horizonFinished(m, state, report(4, 'sat'), NOW)).state;
    expect(state.plan).toMatchObject({ t: 4, planLength: 4, solution: { steps: 4 } });
    const sut = applied(horizonFinished(m, state, report(3, 'unsat'), NOW + 5));
    expect(sut.finished).toBe(true);
    expect(sut.state.status).toBe('optimal');
    expect(sut.jobEvent).toEqual({
      jobId: 'job-1',
      status: 'optimal',
      bounds: { lower: 4, upper: 4 },
      horizon: 4,
      solution: { steps: 4 },
    });
    const resource = buildJobResource(m, sut.state, NOW + 5);
    expect(resource).toMatchObject({
      status: 'optimal',
      horizon: 4,
      verified: true,
      bounds: { lower: 4, upper: 4 },
    });
    expect(resource.stats).toMatchObject({ vars: 40, clauses: 80, solver: 'kissat 4.0.2' });
    expect(resource.finishedAt).toBe(new Date(NOW + 5).toISOString());
  });

  it("keeps a horizon's solver CPU time and peak memory for its progress event and its line, where measured", () => {
    const m = meta();
    const start = newJob(m).state;
    const usage = { solverCpuMs: 1_250, solverPeakRssKiB: 204_800 };
    const measured = report(4, 'unsat', { stats: { ...report(4, 'unsat').stats, ...usage } });
    const sut = applied(horizonFinished(m, start, measured, NOW));
    expect(sut.horizonEvents[0]).toMatchObject({ t: 4, state: 'unsat', stats: usage });
    const lines = buildJobResource(m, sut.state, NOW).horizons;
    expect(lines.find((h) => h.t === 4)).toMatchObject({ result: 'unsat', ...usage });
    // The line names the formula its worker reported (report(t) encodes 10 t vars, 20 t clauses).
    expect(lines.find((h) => h.t === 4)).toMatchObject({ vars: 40, clauses: 80 });
    expect(lines.filter((h) => h.result === 'queued').some((h) => 'clauses' in h)).toBe(false);
    // Not measured (no native spawn host): no such fields, and none on horizons still running.
    const plain = applied(horizonFinished(m, start, report(4, 'unsat'), NOW));
    const plainLines = buildJobResource(m, plain.state, NOW).horizons;
    expect(plainLines.find((h) => h.t === 4)).not.toHaveProperty('solverPeakRssKiB');
    expect(
      lines.filter((h) => h.result === 'running' || h.result === 'queued').some((h) => 'solverCpuMs' in h),
    ).toBe(false);
  });

  it('ignores a repeated answer and an answer after the job ended', () => {
    const m = meta();
    const state = applied(horizonFinished(m, newJob(m).state, report(4, 'unsat'), NOW)).state;
    expect(horizonFinished(m, state, report(4, 'unsat'), NOW)).toBeUndefined();
    const cancelled = applied(jobCancelled(m, state, NOW)).state;
    expect(horizonFinished(m, cancelled, report(5, 'sat'), NOW)).toBeUndefined();
  });

  it('fails the job on an answer that contradicts the bounds', () => {
    const m = meta();
    const state = applied(horizonFinished(m, newJob(m).state, report(4, 'unsat'), NOW)).state;
    const sut = applied(horizonFinished(m, state, report(3, 'sat'), NOW));
    expect(sut.state.status).toBe('failed');
    expect(sut.state.error).toMatch(/contradictory/);
    expect(sut.finished).toBe(true);
  });

  it('answers a single solve satisfiable (bounds 0..0) or unsatisfiable', () => {
    const m = meta({
      planning: false,
      lowerBound: 0,
      options: { ...meta().options, maxHorizon: 0, parallelism: 1 },
    });
    const start = newJob(m);
    expect(start.enqueue).toEqual([0]);
    const sat = applied(horizonFinished(m, start.state, report(0, 'sat', { plan: { model: [1] } }), NOW));
    expect(sat.state.status).toBe('satisfiable');
    expect(sat.jobEvent).toMatchObject({
      status: 'satisfiable',
      bounds: { lower: 0, upper: 0 },
      solution: { model: [1] },
    });
    expect(sat.jobEvent).not.toHaveProperty('horizon');
    const unsat = applied(horizonFinished(m, start.state, report(0, 'unsat'), NOW));
    expect(unsat.state.status).toBe('unsatisfiable');
    expect(unsat.jobEvent?.bounds).toEqual({ lower: 0 });
  });
});

describe('a sweep with patience', () => {
  const patient = meta({ options: { ...meta().options, policy: 'bracket', patienceSec: 2, maxHorizon: 40 } });

  it("queues the ladder's rung with its limit, and queues it again as a new run once it gave way", () => {
    const start = newJob(patient);
    // bracket from 3: the climber at 3, the ladder's rung at 4 with the 2 s limit.
    expect(start.enqueue).toEqual([3, 4]);
    expect(start.state.sweep.horizons).toEqual([
      { t: 3, state: 'queued' },
      { t: 4, state: 'queued', limitMs: 2000 },
    ]);
    let state = applied(horizonFinished(patient, start.state, report(3, 'unsat'), NOW)).state;
    // The rung ran out of time on its worker: it gave way (a `cancelled` event), the ladder climbs.
    const gave = applied(
      horizonFinished(patient, state, report(4, 'unknown', { reason: 'timeout', ms: 2000 }), NOW),
    );
    expect(gave.horizonEvents[0]).toMatchObject({ t: 4, state: 'cancelled', ms: 2000 });
    expect(gave.enqueue).toEqual([4]);
    // Free again, 4 is now the climber's (lowest open): a second run, without a limit.
    expect(gave.state.sweep.horizons.find((h) => h.t === 4)).toEqual({ t: 4, state: 'queued', run: 2 });
    state = gave.state;
    const done = applied(horizonFinished(patient, state, report(4, 'sat'), NOW));
    expect(done.state.status).toBe('optimal');
  });

  it("takes a late copy of a run's reports for that run alone: its 'unknown' leaves the run in flight as it is, its answer counts", () => {
    const start = newJob(patient);
    let state = applied(horizonFinished(patient, start.state, report(3, 'unsat', { run: 1 }), NOW)).state;
    const timeout = { reason: 'timeout', ms: 2000, run: 1 };
    state = applied(horizonFinished(patient, state, report(4, 'unknown', timeout), NOW)).state;
    const second = { t: 4, state: 'queued', run: 2 };
    expect(state.sweep.horizons.find((h) => h.t === 4)).toEqual(second);
    // The first run's worker lost the horizon to another while cut off from Redis; both ran out of
    // time, and its copy of the report comes last. Applied, it would end the second run as unknown.
    expect(horizonFinished(patient, state, report(4, 'unknown', timeout), NOW + 10)).toBeUndefined();
    expect(horizonStarted(patient, state, 4, NOW + 10, 1)).toBeUndefined();
    const running = applied(horizonStarted(patient, state, 4, NOW + 20, 2)).state;
    expect(horizonFinished(patient, running, report(4, 'unknown', timeout), NOW + 30)).toBeUndefined();
    // The second run's own outcome, and an answer of any run, are taken.
    expect(
      applied(
        horizonFinished(patient, running, report(4, 'unknown', { ...timeout, run: 2 }), NOW + 40),
      ).state.sweep.horizons.find((h) => h.t === 4),
    ).toMatchObject({ t: 4, state: 'unknown', run: 2 });
    const late = applied(horizonFinished(patient, running, report(4, 'sat', { run: 1 }), NOW + 40));
    expect(late.state.status).toBe('optimal');
  });
});

describe(horizonStarted.name, () => {
  it('marks a queued horizon running, and the job running', () => {
    const m = meta();
    const sut = applied(horizonStarted(m, newJob(m).state, 3, NOW));
    expect(sut.state.status).toBe('running');
    expect(sut.horizonEvents).toEqual([{ jobId: 'job-1', t: 3, state: 'running', ms: 0 }]);
    expect(sut.jobEvent?.status).toBe('running');
  });

  it('ignores a start reported after the horizon was cancelled', () => {
    const m = meta();
    const state = applied(horizonFinished(m, newJob(m).state, report(4, 'unsat'), NOW)).state;
    expect(horizonStarted(m, state, 3, NOW)).toBeUndefined();
  });
});

describe(planKnown.name, () => {
  const known = (length: number, by = 'given plan') => ({ plan: { steps: length }, length, by });

  it('starts a new job with the plan as its best answer: only horizons below it are queued', () => {
    const m = meta({ deadline: NOW + 100 });
    const sut = applied(planKnown(m, freshJob(m), known(7), NOW));
    expect(sut.state.plan).toEqual({ t: 7, planLength: 7, solution: { steps: 7 } });
    expect(sut.enqueue).toEqual([3, 4]);
    expect(sut.horizonEvents).toEqual([{ jobId: 'job-1', t: 7, state: 'sat', ms: 0, by: 'given plan' }]);
    expect(buildJobResource(m, sut.state, NOW).horizons).toContainEqual({
      t: 7,
      result: 'sat',
      ms: 0,
      by: 'given plan',
    });
    // A job that runs out of time still has the plan.
    const late = applied(deadlinePassed(m, sut.state, NOW + 100));
    expect(late.state).toMatchObject({ status: 'satisfiable', plan: { planLength: 7 } });
    expect(late.jobEvent).toMatchObject({
      horizon: 7,
      solution: { steps: 7 },
      bounds: { lower: 3, upper: 7 },
    });
  });

  it('with the UNSAT answer just below, finishes optimal with the plan', () => {
    const m = meta();
    let state = applied(planKnown(m, freshJob(m), known(4), NOW)).state;
    state = applied(horizonFinished(m, state, report(3, 'unsat'), NOW)).state;
    expect(state).toMatchObject({ status: 'optimal', plan: { t: 4, solution: { steps: 4 } } });
  });

  it('arriving while the job runs, stops the horizon of its length and those above it', () => {
    const m = meta({ options: { ...meta().options, parallelism: 3 } });
    const running = newJob(m);
    expect(running.enqueue).toEqual([3, 4, 5]);
    const sut = applied(planKnown(m, running.state, known(4, 'quick plan'), NOW + 10));
    expect(sut.cancel.sort()).toEqual([4, 5]);
    expect(sut.enqueue).toEqual([]);
    expect(sut.horizonEvents.map((e) => [e.t, e.state, e.by])).toEqual([
      [4, 'sat', 'quick plan'],
      [5, 'cancelled', undefined],
    ]);
    expect(sut.jobEvent).toMatchObject({ bounds: { lower: 3, upper: 4 }, horizon: 4 });
  });

  it('is ignored once the job has a plan as short, or is over', () => {
    const m = meta();
    const withPlan = applied(horizonFinished(m, newJob(m).state, report(4, 'sat'), NOW)).state;
    expect(planKnown(m, withPlan, known(4, 'quick plan'), NOW)).toBeUndefined();
    expect(planKnown(m, withPlan, known(6, 'quick plan'), NOW)).toBeUndefined();
    const over = applied(jobCancelled(m, newJob(m).state, NOW)).state;
    expect(planKnown(m, over, known(4, 'quick plan'), NOW)).toBeUndefined();
  });

  it('fails the job when the plan contradicts an UNSAT answer (a bug, never an input)', () => {
    const m = meta();
    const state = applied(horizonFinished(m, newJob(m).state, report(4, 'unsat'), NOW)).state;
    expect(applied(planKnown(m, state, known(4), NOW)).state.status).toBe('failed');
  });
});

describe(deadlinePassed.name, () => {
  it('ends with the best plan found (satisfiable) and stops the horizons in flight', () => {
    const m = meta({ deadline: NOW + 100 });
    const state = applied(horizonFinished(m, newJob(m).state, report(4, 'sat'), NOW)).state;
    expect(deadlinePassed(m, state, NOW + 50)).toBeUndefined();
    const sut = applied(deadlinePassed(m, state, NOW + 100));
    expect(sut.state.status).toBe('satisfiable');
    expect(sut.cancel).toEqual([3]);
    expect(sut.finished).toBe(true);
  });

  it('ends unknown without a plan', () => {
    const m = meta({ deadline: NOW });
    expect(applied(deadlinePassed(m, newJob(meta()).state, NOW)).state.status).toBe('unknown');
  });
});

describe(jobCancelled.name, () => {
  it('cancels every horizon in flight, once', () => {
    const m = meta();
    const sut = applied(jobCancelled(m, newJob(m).state, NOW + 10));
    expect(sut.state.status).toBe('cancelled');
    expect(sut.cancel).toEqual([3, 4]);
    expect(jobCancelled(m, sut.state, NOW + 20)).toBeUndefined();
    // A final resource shows no horizon as still queued or running.
    expect(buildJobResource(m, sut.state, NOW + 10).horizons.map((h) => h.result)).toEqual([
      'cancelled',
      'cancelled',
    ]);
  });
});
