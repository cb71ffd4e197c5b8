import { describe, expect, it } from 'vitest';

import { batchOutcome } from './batch-follow.js';
import type { BatchSummary } from '@satfarm/queue';

import { BatchProgressLines, BatchRate, progressLine } from './batch-progress.js';

const summary = (counts: BatchSummary['counts'], size = 1000): BatchSummary => ({
  batchId: 'b1',
  createdAt: '2026-11-28T19:00:00.000Z',
  size,
  counts,
  done: false,
  finishedAt: null,
});

describe(progressLine.name, () => {
  it('shows done/total, the counts, jobs per second and the time left', () => {
    const rate = new BatchRate();
    rate.observe(20, 0);
    rate.observe(120, 8_000);
    expect(progressLine(summary({ queued: 870, running: 10, optimal: 118, failed: 2 }), rate)).toBe(
      'batch b1: 120/1000 done (queued 870, running 10, optimal 118, failed 2) 12.5 jobs/s eta 70s',
    );
  });

  it('leaves out the rate before any job ended while followed, and the time left at the end', () => {
    const rate = new BatchRate();
    rate.observe(0, 0);
    expect(progressLine(summary({ queued: 3 }, 3), rate)).toBe('batch b1: 0/3 done (queued 3)');
    rate.observe(3, 2_000);
    expect(progressLine(summary({ optimal: 3 }, 3), rate)).toBe('batch b1: 3/3 done (optimal 3) 1.5 jobs/s');
  });
});

describe(BatchProgressLines.name, () => {
  it('writes a line per update that changes the counts', () => {
    const lines: string[] = [];
    let now = 0;
    const sut = new BatchProgressLines(
      (line) => lines.push(line),
      () => now,
    );
    sut.update(summary({ queued: 2 }, 2));
    now = 500;
    sut.update(summary({ queued: 2 }, 2));
    now = 1000;
    sut.update(summary({ queued: 1, optimal: 1 }, 2));
    expect(lines).toEqual([
      'batch b1: 0/2 done (queued 2)\n',
      'batch b1: 1/2 done (queued 1, optimal 1) 1.0 jobs/s eta 1s\n',
    ]);
  });
});

describe(batchOutcome.name, () => {
  it('is answered when every job is optimal or unsatisfiable', () => {
    expect(batchOutcome({ optimal: 5, unsatisfiable: 2 })).toBe('answered');
  });

  it('is unanswered when any job ended without an answer or has not ended', () => {
    for (const status of ['unknown', 'failed', 'cancelled', 'queued', 'running'] as const)
      expect(batchOutcome({ optimal: 5, satisfiable: 1, [status]: 1 })).toBe('unanswered');
  });

  it('leaves satisfiable jobs to their bounds', () => {
    expect(batchOutcome({ optimal: 5, satisfiable: 1 })).toBe('check-plans');
  });
});
