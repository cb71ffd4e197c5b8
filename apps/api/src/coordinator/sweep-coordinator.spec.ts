import { describe, expect, it } from 'vitest';

import { InputError } from '@satfarm/games';
import { PayloadError } from '@satfarm/queue';

import { FarmMetrics } from '../metrics/farm-metrics.js';
import { SweepCoordinator } from './sweep-coordinator.js';
import {
  farm,
  games,
  NOW,
  pigeons,
  RecordingDispatch,
  RecordingProgress,
  rejection,
  report,
  SETTINGS,
} from './testing/coordinator.fakes.js';

describe(SweepCoordinator.name, () => {
  describe('bad jobs', () => {
    it.each([
      ['a horizon cap above the farm', pigeons({ maxHorizon: 51 }), 'options.maxHorizon', /at most 50/],
      [
        'a first horizon above the cap',
        pigeons({ maxHorizon: 8, minHorizon: 9 }),
        'options.minHorizon',
        /at most the largest horizon, 8/,
      ],
      ['an unknown policy', pigeons({ policy: 'sideways' }), 'options.policy', /sideways/],
    ])('refuse %s, naming the field, and store and queue nothing', async (_, request, field, reason) => {
      const { coordinator, store, dispatch } = farm();
      const err = await rejection(coordinator.submit([request]));
      expect(err).toBeInstanceOf(PayloadError);
      expect((err as PayloadError).field).toBe(field);
      expect(err.message).toMatch(reason);
      expect(store.jobs.size).toBe(0);
      expect(dispatch.queued).toEqual([]);
    });

    it('refuse an unknown game, naming the field', async () => {
      const { coordinator, store, dispatch } = farm();
      const err = await rejection(coordinator.submit([{ game: 'no-such-game', instance: {} }]));
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).field).toBe('game');
      expect(store.jobs.size).toBe(0);
      expect(dispatch.queued).toEqual([]);
    });

    it("refuse a submission whole when one of its jobs is bad, naming that job's field", async () => {
      const { coordinator, store, dispatch } = farm();
      const err = await rejection(coordinator.createBatch([pigeons(), pigeons({ maxHorizon: 99 })]));
      expect((err as PayloadError).field).toBe('jobs[1].options.maxHorizon');
      expect(store.jobs.size).toBe(0);
      expect(dispatch.queued).toEqual([]);
    });
  });

  describe('a new job', () => {
    it('is stored queued and its first horizons, `parallelism` of them from the lower bound, go to the workers', async () => {
      const { coordinator, store, dispatch } = farm();
      const { jobIds } = await coordinator.submit([pigeons({ parallelism: 3, priority: 5 })], 'key-a');
      const [id] = jobIds as [string];
      expect(store.jobs.get(id)?.record.state.status).toBe('queued');
      expect(dispatch.queuedTs).toEqual([3, 4, 5]);
      expect(dispatch.queued[0]).toEqual({
        payload: {
          jobId: id,
          game: 'pigeons',
          instance: { pigeons: 5, lowerBound: 4 },
          t: 3,
          solver: 'kissat',
        },
        priority: 5,
        tenant: 'key-a/jobs',
      });
      await expect(coordinator.resource(id)).resolves.toMatchObject({ id, status: 'queued' });
    });

    it("takes the farm's parallelism when it names none", async () => {
      const { coordinator, dispatch } = farm();
      await coordinator.submit([pigeons()]);
      expect(dispatch.queuedTs).toEqual([3, 4]);
    });
  });

  describe('reports', () => {
    it('finish a job optimal on SAT at t and UNSAT at t-1, cancelling the horizons the answer dominates', async () => {
      const { coordinator, store, dispatch, progress, advance } = farm();
      const { jobIds } = await coordinator.submit([pigeons({ parallelism: 3 })]);
      const [id] = jobIds as [string];
      advance(100);

      await coordinator.handleReport(report(id, 4, 'sat'));
      // Horizon 5 can only find a longer plan: it is stopped where it runs and taken off the queue.
      expect(dispatch.stopped).toContainEqual({
        ids: [`${id}.t5`],
        reason: 'dominated',
        decidedAt: NOW + 40,
      });
      expect(dispatch.removed).toContainEqual([`${id}.t5`]);
      expect(store.markers.has(`${id}.t5`)).toBe(true);
      expect(store.jobs.get(id)?.resource).toBeUndefined();

      await coordinator.handleReport(report(id, 3, 'unsat'));
      const resource = await coordinator.resource(id);
      expect(resource).toMatchObject({ status: 'optimal', horizon: 4, bounds: { lower: 4, upper: 4 } });
      expect(progress.jobs.at(-1)).toMatchObject({ jobId: id, status: 'optimal', horizon: 4 });
      expect(dispatch.queuedTs).toEqual([3, 4, 5]);
    });

    it('that finish a job stop its other horizons as finished, and mark the job against late starts', async () => {
      const { coordinator, store, dispatch, advance } = farm();
      const { jobIds } = await coordinator.submit([pigeons({ parallelism: 3 })]);
      const [id] = jobIds as [string];
      advance(100);
      await coordinator.handleReport(report(id, 3, 'unsat'));
      const inFlight = dispatch.queuedTs.filter((t) => t > 4).map((t) => `${id}.t${t}`);
      expect(inFlight.length).toBeGreaterThan(0);

      await coordinator.handleReport(report(id, 4, 'sat'));
      await expect(coordinator.resource(id)).resolves.toMatchObject({ status: 'optimal', horizon: 4 });
      // Told as soon as the answer is known, and again once the markers are written.
      const stop = { ids: inFlight, reason: 'job-finished', decidedAt: NOW + 40 };
      expect(dispatch.stopped.filter((s) => s.ids.includes(inFlight[0]!))).toEqual([stop, stop]);
      expect(dispatch.removed.at(-1)).toEqual(inFlight);
      expect(store.markers.has(id)).toBe(true);
    });

    it('raise the lower bound on UNSAT and queue the next horizons', async () => {
      const { coordinator, dispatch } = farm();
      const { jobIds } = await coordinator.submit([pigeons()]);
      const [id] = jobIds as [string];
      await coordinator.handleReport(report(id, 4, 'unsat'));
      expect(dispatch.stopped).toContainEqual(
        expect.objectContaining({ ids: [`${id}.t3`], reason: 'dominated' }),
      );
      expect(dispatch.queuedTs).toEqual([3, 4, 5, 6]);
    });

    it('change nothing when repeated, or when they come after the job ended', async () => {
      const { coordinator, store, dispatch, progress } = farm();
      const { jobIds } = await coordinator.submit([pigeons({ parallelism: 3 })]);
      const [id] = jobIds as [string];
      await coordinator.handleReport(report(id, 4, 'sat'));
      const seen = (): unknown => ({
        writes: store.writes,
        queued: dispatch.queued.length,
        stopped: dispatch.stopped.length,
        removed: dispatch.removed.length,
        events: progress.horizons.length + progress.jobs.length,
      });
      const before = seen();
      await coordinator.handleReport(report(id, 4, 'sat'));
      expect(seen()).toEqual(before);

      await coordinator.handleReport(report(id, 3, 'unsat'));
      const final = await coordinator.resource(id);
      const after = seen();
      await coordinator.handleReport(report(id, 3, 'unsat'));
      await coordinator.handleReport(report(id, 5, 'sat'));
      expect(seen()).toEqual(after);
      await expect(coordinator.resource(id)).resolves.toEqual(final);
    });

    it('of an unknown job change nothing', async () => {
      const { coordinator, store, dispatch } = farm();
      await coordinator.handleReport(report('no-such-job', 4, 'sat'));
      expect(store.writes).toBe(0);
      expect(dispatch.queued).toEqual([]);
    });

    it("fail the job on a horizon's failure, naming the horizon", async () => {
      const { coordinator, dispatch } = farm();
      const { jobIds } = await coordinator.submit([pigeons()]);
      const [id] = jobIds as [string];
      await coordinator.handleReport({
        kind: 'failed',
        jobId: id,
        game: 'pigeons',
        t: 4,
        worker: 'host-a:1',
        error: 'kissat exited with signal SIGSEGV',
      });
      const resource = await coordinator.resource(id);
      expect(resource).toMatchObject({ status: 'failed' });
      expect(resource?.error).toMatch(/horizon 4: kissat exited with signal SIGSEGV/);
      expect(dispatch.stopped).toContainEqual(expect.objectContaining({ reason: 'job-finished' }));
    });
  });

  describe('cancel', () => {
    it('ends the job cancelled and stops its horizons everywhere; later reports change nothing', async () => {
      const { coordinator, store, dispatch } = farm();
      const { jobIds } = await coordinator.submit([pigeons()]);
      const [id] = jobIds as [string];
      await coordinator.handleReport({
        kind: 'started',
        jobId: id,
        game: 'pigeons',
        t: 3,
        worker: 'w:1',
        at: NOW,
      });

      const resource = await coordinator.cancel(id);
      expect(resource).toMatchObject({ id, status: 'cancelled' });
      const horizons = [`${id}.t3`, `${id}.t4`];
      expect(dispatch.stopped).toContainEqual(
        expect.objectContaining({ ids: horizons, reason: 'job-cancelled' }),
      );
      expect(dispatch.removed).toContainEqual(horizons);
      // The job's own marker stops a horizon of it that starts later.
      expect([...store.markers].sort()).toEqual([id, ...horizons].sort());

      const writes = store.writes;
      await coordinator.handleReport(report(id, 4, 'sat'));
      await coordinator.cancel(id);
      expect(store.writes).toBe(writes);
      await expect(coordinator.resource(id)).resolves.toMatchObject({ status: 'cancelled' });
    });

    it('answers undefined for an unknown job', async () => {
      const { coordinator } = farm();
      await expect(coordinator.cancel('no-such-job')).resolves.toBeUndefined();
    });
  });

  describe('a lost horizon', () => {
    it('fails the job when the lost run is the one in flight, and is ignored otherwise', async () => {
      const { coordinator, store } = farm();
      const { jobIds } = await coordinator.submit([pigeons()]);
      const [id] = jobIds as [string];
      await coordinator.horizonLost(`${id}.t4.r2`, 'stalled');
      await coordinator.horizonLost('not-a-horizon', 'stalled');
      expect(store.writes).toBe(0);
      await coordinator.horizonLost(`${id}.t4`, 'job stalled more than allowable limit');
      const resource = await coordinator.resource(id);
      expect(resource).toMatchObject({ status: 'failed' });
      expect(resource?.error).toMatch(/horizon 4 was lost: job stalled/);
    });
  });

  describe('resume', () => {
    it('queues again the horizons in flight of an unfinished job, and leaves finished jobs be', async () => {
      const { coordinator, store } = farm();
      const { jobIds } = await coordinator.submit([pigeons(), pigeons()]);
      const [open, done] = jobIds as [string, string];
      await coordinator.cancel(done);

      const dispatch = new RecordingDispatch();
      const restarted = new SweepCoordinator({
        store,
        dispatch,
        progress: new RecordingProgress(),
        metrics: new FarmMetrics(),
        games,
        settings: SETTINGS,
        clock: () => NOW,
      });
      try {
        await expect(restarted.resume()).resolves.toBe(1);
        expect(dispatch.queued.map((h) => [h.payload.jobId, h.payload.t])).toEqual([
          [open, 3],
          [open, 4],
        ]);
      } finally {
        restarted.close();
      }
    });
  });
});

describe(`${SweepCoordinator.name}: a proven bound`, () => {
  it('starts the sweep at the bound unless trustBound is false, and the job says what proves it', async () => {
    const { coordinator, dispatch } = farm();
    // Three moves from solved, inside the cube's goal perimeter: its bound is the exact distance.
    const instance = { size: 3, scramble: 'R U F' };
    const { jobIds } = await coordinator.submit([
      { game: 'cube', instance, options: { trustBound: true, parallelism: 1 } },
      { game: 'cube', instance, options: { parallelism: 1 } },
      { game: 'cube', instance, options: { trustBound: false, parallelism: 1 } },
      { game: 'cube', instance, options: { parallelism: 3 } },
    ]);
    // A bound that is the optimum is the only horizon left to run, whatever the parallelism.
    expect(dispatch.queuedOf(jobIds[3]!)).toEqual([3]);
    // Trusted by default: the cube's bound is proven by search.
    expect(dispatch.queuedOf(jobIds[0]!)).toEqual([3]);
    expect(dispatch.queuedOf(jobIds[1]!)).toEqual([3]);
    expect(dispatch.queuedOf(jobIds[2]!)).toEqual([2]);
    expect((await coordinator.resource(jobIds[0]!))?.boundProof).toMatch(/breadth-first/);
    expect((await coordinator.resource(jobIds[1]!))?.boundProof).toMatch(/breadth-first/);
    expect((await coordinator.resource(jobIds[2]!))?.boundProof).toBeUndefined();
    // That bound is the optimum (inside the goal perimeter), so its horizon runs with the SAT
    // preset; one below a bound not trusted, the lowest horizon keeps the UNSAT preset.
    const presetOf = (id: string) => dispatch.queued.find((h) => h.payload.jobId === id)!.payload.preset;
    expect(presetOf(jobIds[0]!)).toBe('sat');
    expect(presetOf(jobIds[2]!)).toBe('unsat');
  });

  it('refuses trustBound for a game whose bound no search proves, naming the option', async () => {
    const { coordinator, dispatch } = farm();
    const err = await rejection(coordinator.submit([pigeons({ trustBound: true })]));
    expect(err.message).toMatch(/options\.trustBound/);
    expect(dispatch.queued).toEqual([]);
  });
});
