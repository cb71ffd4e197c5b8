import { describe, expect, it } from 'vitest';

import { addSample, batchPace, jobsOver, newerCounts, RECENT_WINDOW_MS } from './batch-progress.model';

const created = Date.parse('2026-11-28T19:00:00.000Z');

describe(jobsOver.name, () => {
  it('counts every final status and neither queued nor running', () => {
    expect(jobsOver({ queued: 4, running: 2, optimal: 3, failed: 1, cancelled: 2 })).toBe(6);
    expect(jobsOver({ queued: 1 })).toBe(0);
  });
});

describe(newerCounts.name, () => {
  it('keeps the reading with more jobs over, whichever arrives last', () => {
    const early = { queued: 5, optimal: 1 };
    const late = { queued: 2, optimal: 4 };
    expect(newerCounts(late, early)).toBe(late);
    expect(newerCounts(early, late)).toBe(late);
    expect(newerCounts(undefined, early)).toBe(early);
  });
});

describe(addSample.name, () => {
  it('forgets samples older than the window but the last one before it, and never goes back', () => {
    let samples = addSample([], { at: created, over: 0 });
    samples = addSample(samples, { at: created + 10_000, over: 5 });
    samples = addSample(samples, { at: created + 20_000, over: 9 });
    samples = addSample(samples, { at: created + 15_000, over: 7 });
    expect(samples.map((s) => s.over)).toEqual([0, 5, 9]);
    samples = addSample(samples, { at: created + 10_000 + RECENT_WINDOW_MS + 1, over: 20 });
    expect(samples.map((s) => s.over)).toEqual([5, 9, 20]);
    expect(addSample(samples, { at: created + 90_000, over: 3 })).toEqual(samples);
  });
});

describe(batchPace.name, () => {
  it('reads the overall rate until the samples span a few seconds, then the recent one', () => {
    const base = { size: 100, over: 10, createdAt: created, now: created + 20_000 };
    const early = batchPace({ ...base, samples: [{ at: created + 18_000, over: 9 }] });
    expect(early).toEqual({ basis: 'overall', perSec: 0.5, etaMs: 180_000 });
    // 6 jobs over in the last 10 s: 0.6 a second, 90 left.
    const recent = batchPace({ ...base, samples: [{ at: created + 10_000, over: 4 }] });
    expect(recent).toEqual({ basis: 'recent', perSec: 0.6, etaMs: 150_000 });
  });

  it('has no time left to offer while nothing ends, and none left once every job is over', () => {
    const stalled = batchPace({
      size: 10,
      over: 3,
      createdAt: created,
      now: created + 30_000,
      samples: [{ at: created + 20_000, over: 3 }],
    });
    expect(stalled).toEqual({ basis: 'recent', perSec: 0 });
    expect(batchPace({ size: 10, over: 0, createdAt: created, now: created + 1000, samples: [] })).toEqual({
      basis: 'overall',
    });
    const all = batchPace({ size: 10, over: 10, createdAt: created, now: created + 1000, samples: [] });
    expect(all.etaMs).toBe(0);
  });

  it('gives a finished batch its overall rate up to its end', () => {
    expect(
      batchPace({
        size: 30,
        over: 30,
        createdAt: created,
        finishedAt: created + 60_000,
        samples: [],
        now: 0,
      }),
    ).toEqual({ basis: 'overall', perSec: 0.5, etaMs: 0 });
  });
});
