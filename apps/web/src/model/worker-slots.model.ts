/** A horizon running on a worker, as `GET /v1/farm` lists it. */
export interface RunningHorizon {
  jobId: string;
  t: number;
  startedAt: string;
  summary?: string;
}

/** One solver slot of a worker as shown: idle, or the horizon it runs and for how long. */
export type SlotView =
  { state: 'idle' } | { state: 'running'; jobId: string; t: number; runningMs: number; summary?: string };

/**
 * A worker's slots at `now`: its running horizons, longest running first, then as many idle slots
 * as `slots` leaves (none when the worker did not say how many it has).
 */
export function workerSlots(
  worker: { slots?: number; horizons?: readonly RunningHorizon[] },
  now: number,
): SlotView[] {
  const running: SlotView[] = [...(worker.horizons ?? [])]
    .sort((a, b) => Date.parse(a.startedAt) - Date.parse(b.startedAt) || a.jobId.localeCompare(b.jobId))
    .map((h) => ({
      state: 'running',
      jobId: h.jobId,
      t: h.t,
      runningMs: Math.max(0, now - Date.parse(h.startedAt)),
      ...(h.summary === undefined ? {} : { summary: h.summary }),
    }));
  const idle = Math.max(0, (worker.slots ?? 0) - running.length);
  return [...running, ...Array.from({ length: idle }, (): SlotView => ({ state: 'idle' }))];
}
