import { describe, expect, it } from 'vitest';

import { FarmOverviewSchema } from '@satfarm/queue';

import { buildFarmOverview } from './farm-overview.builder.js';

describe(buildFarmOverview.name, () => {
  const sut = (workers: Record<string, string>[] = []) =>
    buildFarmOverview({
      horizons: { waiting: 3, prioritized: 2, delayed: 1, active: 4, completed: 9, pending: 10 },
      reports: { waiting: 1 },
      workers,
      jobs: { queued: 1, running: 2 },
      now: Date.UTC(2025, 0, 2, 3, 4, 5),
    });

  it('counts every horizon not yet taken, pending ones too, as queue depth and the active ones as solvers', () => {
    const overview = sut();
    expect(overview.queueDepth).toBe(16);
    expect(overview.pending).toBe(10);
    expect(overview.activeSolvers).toBe(4);
    expect(overview.queues.horizons.failed).toBe(0);
    expect(overview.queues.reports.waiting).toBe(1);
    expect(overview.at).toBe('2025-01-02T03:04:05.000Z');
    expect(FarmOverviewSchema.parse(overview)).toEqual(overview);
  });

  it('names each worker by the name it gave BullMQ, sorted', () => {
    const overview = sut([
      { rawname: 'p:satfarm-horizons:w:host-b:12', addr: '10.0.0.2:5000', age: '30', idle: '0' },
      { rawname: 'p:satfarm-horizons:w:host-a:7', addr: '10.0.0.1:5000', age: '4', idle: 'x' },
    ]);
    expect(overview.workers).toEqual([
      { name: 'host-a:7', addr: '10.0.0.1:5000', ageSec: 4, idleSec: 0, horizons: [] },
      { name: 'host-b:12', addr: '10.0.0.2:5000', ageSec: 30, idleSec: 0, horizons: [] },
    ]);
  });

  it('gives each worker its announced slots and the horizons it runs, oldest first', () => {
    const overview = buildFarmOverview({
      horizons: { active: 3 },
      reports: {},
      workers: [
        { rawname: 'p:satfarm-horizons:w:host-a:7', addr: '10.0.0.1:5000', age: '4', idle: '0' },
        { rawname: 'p:satfarm-horizons:w:host-b:9', addr: '10.0.0.2:5000', age: '4', idle: '0' },
      ],
      slots: new Map([['host-a:7', 2]]),
      active: [
        { worker: 'host-a:7', jobId: 'j1', t: 5, startedAt: Date.UTC(2025, 0, 2, 3, 4, 2) },
        { worker: 'host-a:7', jobId: 'j2', t: 3, startedAt: Date.UTC(2025, 0, 2, 3, 4, 1) },
        { worker: 'host-c:1', jobId: 'j3', t: 1, startedAt: Date.UTC(2025, 0, 2, 3, 4, 1) },
      ],
      jobs: { queued: 0, running: 2 },
      now: Date.UTC(2025, 0, 2, 3, 4, 5),
    });
    expect(overview.workers[0]).toMatchObject({
      name: 'host-a:7',
      slots: 2,
      horizons: [
        { jobId: 'j2', t: 3, startedAt: '2025-01-02T03:04:01.000Z' },
        { jobId: 'j1', t: 5, startedAt: '2025-01-02T03:04:02.000Z' },
      ],
    });
    expect(overview.workers[1]?.slots).toBeUndefined();
    expect(overview.workers[1]!.horizons).toEqual([]);
    expect(FarmOverviewSchema.parse(overview)).toEqual(overview);
  });

  it('lists no worker for a Redis that refuses CLIENT LIST (BullMQ stands in an entry without an address)', () => {
    expect(sut([{ name: 'GCP does not support client list' }]).workers).toEqual([]);
  });
});
