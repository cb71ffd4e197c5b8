import type { HorizonEventPayload, JobResource } from '@satfarm/queue';
import { describe, expect, it } from 'vitest';

import {
  applyHorizonEvent,
  applyJobEvent,
  horizonElapsedMs,
  type JobTimeline,
  timelineFromResource,
} from './job-timeline.model';

const jobId = 'job-1';

function resource(overrides: Partial<JobResource> = {}): JobResource {
  return {
    id: jobId,
    game: 'cube',
    status: 'running',
    verified: false,
    bounds: { lower: 3 },
    horizons: [
      { t: 3, result: 'running', ms: 400 },
      { t: 4, result: 'queued', ms: 0 },
    ],
    stats: { vars: 0, clauses: 0, solver: 'kissat', wallMs: 500 },
    createdAt: '2025-01-01T00:00:00.000Z',
    finishedAt: null,
    error: null,
    ...overrides,
  };
}

const horizon = (t: number, state: HorizonEventPayload['state'], ms: number, conflicts?: number) => ({
  jobId,
  t,
  state,
  ms,
  ...(conflicts === undefined ? {} : { stats: { vars: 10, clauses: 20, solver: 'kissat', conflicts } }),
});

describe(applyHorizonEvent.name, () => {
  const sut = (): JobTimeline => timelineFromResource(resource(), 1000);

  it('moves a horizon forward and never back: a late progress report does not undo its answer', () => {
    let timeline = applyHorizonEvent(sut(), horizon(4, 'running', 0), 1100);
    timeline = applyHorizonEvent(timeline, horizon(4, 'unsat', 900, 5000), 1200);
    timeline = applyHorizonEvent(timeline, horizon(4, 'running', 850, 4900), 1300);
    timeline = applyHorizonEvent(timeline, horizon(4, 'queued', 0), 1300);
    expect(timeline.horizons.find((h) => h.t === 4)).toMatchObject({
      state: 'unsat',
      ms: 900,
      conflicts: 5000,
    });
  });

  it('takes an answer that raced with the cancellation over "cancelled", as the sweep does, but not an unknown', () => {
    let timeline = applyHorizonEvent(sut(), horizon(3, 'running', 500, 700), 1100);
    timeline = applyHorizonEvent(timeline, horizon(3, 'cancelled', 600), 1200);
    timeline = applyHorizonEvent(timeline, horizon(3, 'unknown', 600), 1250);
    expect(timeline.horizons.find((h) => h.t === 3)?.state).toBe('cancelled');
    timeline = applyHorizonEvent(timeline, horizon(3, 'unsat', 650), 1300);
    expect(timeline.horizons.find((h) => h.t === 3)).toMatchObject({ state: 'unsat', conflicts: 700 });
    // The record read when the job ends says the same, and an answer never changes after that.
    timeline = timelineFromResource(
      resource({ status: 'optimal', horizons: [{ t: 3, result: 'unsat', ms: 650 }] }),
      1400,
      timeline,
    );
    timeline = applyHorizonEvent(timeline, horizon(3, 'cancelled', 700), 1500);
    expect(timeline.horizons.find((h) => h.t === 3)?.state).toBe('unsat');
  });

  it('measures conflicts a second between two reports of a running horizon', () => {
    let timeline = applyHorizonEvent(sut(), horizon(3, 'running', 1000, 2000), 2000);
    expect(timeline.horizons[0]!.conflictsPerSec).toBe(2000);
    timeline = applyHorizonEvent(timeline, horizon(3, 'running', 2000, 5000), 3000);
    expect(timeline.horizons[0]).toMatchObject({ conflicts: 5000, conflictsPerSec: 3000, vars: 10 });
    expect(horizonElapsedMs(timeline.horizons[0]!, 3500)).toBe(2500);
  });

  it('ignores events of other jobs', () => {
    const timeline = sut();
    expect(applyHorizonEvent(timeline, { ...horizon(3, 'sat', 1), jobId: 'other' }, 2000)).toBe(timeline);
  });
});

describe(applyJobEvent.name, () => {
  it('closes the bounds in, records each change, and keeps a final status', () => {
    let timeline = timelineFromResource(resource(), 1000);
    timeline = applyJobEvent(timeline, { jobId, status: 'running', bounds: { lower: 5 } }, 2000);
    timeline = applyJobEvent(timeline, { jobId, status: 'running', bounds: { lower: 4, upper: 7 } }, 3000);
    timeline = applyJobEvent(timeline, { jobId, status: 'optimal', bounds: { lower: 6, upper: 6 } }, 4000);
    timeline = applyJobEvent(timeline, { jobId, status: 'running', bounds: { lower: 5, upper: 7 } }, 5000);
    expect(timeline.status).toBe('optimal');
    expect(timeline.bounds).toEqual({ lower: 6, upper: 6 });
    expect(timeline.boundsHistory.map(({ lower, upper }) => [lower, upper])).toEqual([
      [3, undefined],
      [5, undefined],
      [5, 7],
      [6, 6],
    ]);
  });
});

describe(timelineFromResource.name, () => {
  it('takes the final resource over what was heard live, keeping the live conflicts', () => {
    let live = timelineFromResource(resource(), 1000);
    live = applyHorizonEvent(live, horizon(3, 'running', 1500, 3000), 2000);
    const final = resource({
      status: 'optimal',
      bounds: { lower: 4, upper: 4 },
      horizon: 4,
      horizons: [
        { t: 3, result: 'unsat', ms: 1800 },
        { t: 4, result: 'sat', ms: 300 },
      ],
    });
    const timeline = timelineFromResource(final, 3000, live);
    expect(timeline).toMatchObject({ status: 'optimal', horizon: 4, bounds: { lower: 4, upper: 4 } });
    expect(timeline.horizons.map((h) => [h.t, h.state, h.ms])).toEqual([
      [3, 'unsat', 1800],
      [4, 'sat', 300],
    ]);
    expect(timeline.horizons[0]!.conflicts).toBe(3000);
  });

  it('keeps the configuration that won a raced horizon, from the resource or from its answer', () => {
    const final = resource({
      status: 'optimal',
      bounds: { lower: 3, upper: 3 },
      horizon: 3,
      horizons: [
        { t: 2, result: 'unsat', ms: 900, config: 'kissat/unsat/2', raced: [] },
        { t: 3, result: 'sat', ms: 300 },
      ],
    });
    expect(timelineFromResource(final, 3000).horizons.map((h) => [h.t, h.config])).toEqual([
      [2, 'kissat/unsat/2'],
      [3, undefined],
    ]);
    const live = applyHorizonEvent(
      timelineFromResource(resource(), 1000),
      {
        jobId,
        t: 2,
        state: 'unsat',
        ms: 900,
        stats: { vars: 10, clauses: 20, solver: 'kissat', config: 'cadical/default/0' },
      },
      2000,
    );
    expect(live.horizons.find((h) => h.t === 2)?.config).toBe('cadical/default/0');
  });

  it("counts a split horizon's cubes refuted from its events, never backwards, and keeps them when it ends", () => {
    const split = (refuted: number, answeredBy?: number) => ({
      depth: 1,
      cubes: 12,
      refuted,
      bound: 6,
      unanswered: 0,
      afterMs: 0,
      ...(answeredBy === undefined ? {} : { answeredBy }),
    });
    let timeline = timelineFromResource(resource(), 1000);
    timeline = applyHorizonEvent(timeline, { jobId, t: 2, state: 'running', ms: 100, split: split(8) }, 1100);
    // A late event of fewer refuted cubes does not undo the count.
    timeline = applyHorizonEvent(timeline, { jobId, t: 2, state: 'running', ms: 90, split: split(7) }, 1200);
    expect(timeline.horizons.find((h) => h.t === 2)?.split).toEqual({ cubes: 12, refuted: 8 });
    timeline = applyHorizonEvent(timeline, { jobId, t: 2, state: 'unsat', ms: 900 }, 1300);
    expect(timeline.horizons.find((h) => h.t === 2)).toMatchObject({ state: 'unsat', split: { refuted: 8 } });
    const final = resource({
      status: 'optimal',
      bounds: { lower: 3, upper: 3 },
      horizon: 3,
      horizons: [{ t: 3, result: 'sat', ms: 300, split: split(5, 4) }],
    });
    expect(timelineFromResource(final, 3000).horizons[0]?.split).toEqual({
      cubes: 12,
      refuted: 5,
      answeredBy: 4,
    });
  });

  it("keeps a horizon's solver calls from the resource, or from the event that ended it", () => {
    const final = resource({
      status: 'optimal',
      bounds: { lower: 3, upper: 3 },
      horizon: 3,
      horizons: [
        { t: 2, result: 'unsat', ms: 900, rounds: 4 },
        { t: 3, result: 'sat', ms: 300 },
      ],
    });
    const timeline = timelineFromResource(final, 3000);
    expect(timeline.horizons.map((h) => [h.t, h.rounds])).toEqual([
      [2, 4],
      [3, undefined],
    ]);
    const live = applyHorizonEvent(
      timelineFromResource(resource(), 1000),
      {
        jobId,
        t: 2,
        state: 'unsat',
        ms: 900,
        stats: { vars: 10, clauses: 20, solver: 'cadical', rounds: 3 },
      },
      2000,
    );
    expect(live.horizons[0]).toMatchObject({ t: 2, state: 'unsat', rounds: 3 });
  });

  it("keeps a finished horizon's solver CPU time and peak memory, from the resource or from its event", () => {
    const final = resource({
      status: 'optimal',
      bounds: { lower: 3, upper: 3 },
      horizon: 3,
      horizons: [
        {
          t: 2,
          result: 'unsat',
          ms: 900,
          vars: 120,
          clauses: 480,
          solverCpuMs: 850,
          solverPeakRssKiB: 20_480,
        },
        { t: 3, result: 'sat', ms: 0, by: 'given plan' },
      ],
    });
    const timeline = timelineFromResource(final, 3000);
    expect(timeline.horizons.map((h) => [h.t, h.solverCpuMs, h.solverPeakRssKiB])).toEqual([
      [2, 850, 20_480],
      [3, undefined, undefined],
    ]);
    // A job opened after it ended shows each horizon's formula from the resource alone.
    expect(timeline.horizons.map((h) => [h.t, h.vars, h.clauses])).toEqual([
      [2, 120, 480],
      [3, undefined, undefined],
    ]);
    const stats = { vars: 10, clauses: 20, solver: 'kissat', solverCpuMs: 700, solverPeakRssKiB: 9_000 };
    const live = applyHorizonEvent(
      timelineFromResource(resource(), 1000),
      { jobId, t: 2, state: 'unsat', ms: 900, stats },
      2000,
    );
    expect(live.horizons[0]).toMatchObject({ t: 2, solverCpuMs: 700, solverPeakRssKiB: 9_000 });
    // A later event of the same state without figures (the resource polled again) keeps them.
    const again = applyHorizonEvent(live, { jobId, t: 2, state: 'unsat', ms: 900 }, 2500);
    expect(again.horizons[0]).toMatchObject({ solverCpuMs: 700, solverPeakRssKiB: 9_000 });
  });

  it('says which horizon is the plan the job was given, from the resource and from the event', () => {
    const given = { t: 7, result: 'sat' as const, ms: 0, by: 'given plan' };
    const fromResource = timelineFromResource(resource({ horizons: [...resource().horizons, given] }), 1000);
    expect(fromResource.horizons.map((h) => [h.t, h.by])).toEqual([
      [3, undefined],
      [4, undefined],
      [7, 'given plan'],
    ]);
    const live = applyHorizonEvent(
      timelineFromResource(resource(), 1000),
      { jobId, t: 7, state: 'sat', ms: 0, by: 'given plan' },
      1500,
    );
    expect(live.horizons.find((h) => h.t === 7)).toMatchObject({ state: 'sat', by: 'given plan' });
    // A later event of the same answer (the resource polled again) keeps it.
    const again = applyHorizonEvent(live, { jobId, t: 7, state: 'sat', ms: 0 }, 2000);
    expect(again.horizons.find((h) => h.t === 7)?.by).toBe('given plan');
  });

  it('says why an unknown horizon has no answer, from the resource and from the event', () => {
    const refused = { t: 9, result: 'unknown' as const, ms: 40, reason: 'formula-limit' };
    const fromResource = timelineFromResource(
      resource({ horizons: [...resource().horizons, refused] }),
      1000,
    );
    expect(fromResource.horizons.find((h) => h.t === 9)).toMatchObject({
      state: 'unknown',
      reason: 'formula-limit',
    });
    const live = applyHorizonEvent(
      timelineFromResource(resource(), 1000),
      { jobId, t: 9, state: 'unknown', ms: 40, reason: 'timeout' },
      1500,
    );
    expect(live.horizons.find((h) => h.t === 9)?.reason).toBe('timeout');
    const again = applyHorizonEvent(live, { jobId, t: 9, state: 'unknown', ms: 40 }, 2000);
    expect(again.horizons.find((h) => h.t === 9)?.reason).toBe('timeout');
  });
});
