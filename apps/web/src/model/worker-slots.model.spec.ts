import { describe, expect, it } from 'vitest';

import { workerSlots } from './worker-slots.model';

describe(workerSlots.name, () => {
  const now = Date.parse('2026-11-28T19:00:10.000Z');

  it('lists running horizons longest first, then the idle slots', () => {
    const slots = workerSlots(
      {
        slots: 3,
        horizons: [
          { jobId: 'b', t: 7, startedAt: '2026-11-28T19:00:08.000Z' },
          { jobId: 'a', t: 5, startedAt: '2026-11-28T19:00:01.500Z' },
        ],
      },
      now,
    );
    expect(slots).toEqual([
      { state: 'running', jobId: 'a', t: 5, runningMs: 8500 },
      { state: 'running', jobId: 'b', t: 7, runningMs: 2000 },
      { state: 'idle' },
    ]);
  });

  it('shows only what runs when the worker does not say its slots', () => {
    expect(workerSlots({}, now)).toEqual([]);
    expect(workerSlots({ slots: 2 }, now)).toEqual([{ state: 'idle' }, { state: 'idle' }]);
    expect(
      workerSlots({ horizons: [{ jobId: 'a', t: 1, startedAt: '2026-11-28T19:00:20.000Z' }] }, now),
    ).toEqual([{ state: 'running', jobId: 'a', t: 1, runningMs: 0 }]);
  });
});
