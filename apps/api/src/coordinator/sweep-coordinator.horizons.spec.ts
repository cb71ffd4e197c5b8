import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import type { HorizonReport } from '@satfarm/queue';

import { SweepCoordinator } from './sweep-coordinator.js';
import { farm, NOW, pigeons, report, settled } from './testing/coordinator.fakes.js';

function started(jobId: string, t: number, run?: number): HorizonReport {
  return {
    kind: 'started',
    jobId,
    game: 'pigeons',
    t,
    worker: 'host-a:1',
    at: NOW,
    ...(run === undefined ? {} : { run }),
  };
}

/** A patient probe's run that ran out of its time on its worker. */
function gaveWay(jobId: string, t: number, ms: number, run = 1): HorizonReport {
  return report(jobId, t, 'unknown', { reason: 'timeout', ms, run });
}

/** The queue entries of `jobId`'s horizons as `[t, limitMs, run]`. */
function runs(
  dispatch: ReturnType<typeof farm>['dispatch'],
  jobId: string,
): Array<[number, number | undefined, number | undefined]> {
  return dispatch.queued
    .filter((h) => h.payload.jobId === jobId)
    .map((h) => [h.payload.t, h.payload.limitMs, h.payload.run]);
}

/**
 * A bracket job whose horizon 4, a patient rung, gave way and runs again as run 2 (the climber's,
 * without a limit), with horizon 3 proven UNSAT.
 */
async function secondRun() {
  const f = farm();
  const { jobIds } = await f.coordinator.submit([pigeons({ policy: 'bracket', patienceSec: 2 })]);
  const id = jobIds[0]!;
  await f.coordinator.handleReport(report(id, 3, 'unsat', { run: 1 }));
  await f.coordinator.handleReport(gaveWay(id, 4, 2000));
  expect(runs(f.dispatch, id).filter(([t]) => t === 4)).toEqual([
    [4, 2000, undefined],
    [4, undefined, 2],
  ]);
  return { ...f, id };
}

describe(`${SweepCoordinator.name}: horizons`, () => {
  describe('with patience', () => {
    it('queue a patient probe with its limit; one that gave way makes way for the next rung, and the job goes on', async () => {
      const { coordinator, dispatch, progress } = farm();
      const { jobIds } = await coordinator.submit([pigeons({ policy: 'probe', patienceSec: 1 })]);
      const [id] = jobIds as [string];
      expect(runs(dispatch, id)).toEqual([
        [3, undefined, undefined],
        [4, 1000, undefined],
      ]);

      await coordinator.handleReport(gaveWay(id, 4, 1000));
      expect(progress.horizons.at(-1)).toMatchObject({ jobId: id, t: 4, state: 'cancelled', ms: 1000 });
      expect(runs(dispatch, id).at(-1)).toEqual([5, 1000, undefined]);
      // The worker stopped it at its limit: nobody is told to stop anything.
      expect(dispatch.stopped).toEqual([]);
      const resource = await coordinator.resource(id);
      expect(resource).toMatchObject({ status: 'running', bounds: { lower: 3 } });
      expect(resource?.horizons.find((h) => h.t === 4)).toMatchObject({ result: 'cancelled', ms: 1000 });
    });

    it('run the highest rung that gave way again with twice its time, as a new run, once the ladder is at the top', async () => {
      const { coordinator, dispatch } = farm();
      const { jobIds } = await coordinator.submit([
        pigeons({ policy: 'probe', patienceSec: 1, maxHorizon: 5 }),
      ]);
      const [id] = jobIds as [string];
      await coordinator.handleReport(gaveWay(id, 4, 1000));
      await coordinator.handleReport(gaveWay(id, 5, 1500));
      expect(runs(dispatch, id)).toEqual([
        [3, undefined, undefined],
        [4, 1000, undefined],
        [5, 1000, undefined],
        [5, 3000, 2],
      ]);

      // Its cancel names the run in flight.
      await coordinator.cancel(id);
      expect(dispatch.stopped).toContainEqual(
        expect.objectContaining({ ids: [`${id}.t3`, `${id}.t5.r2`], reason: 'job-cancelled' }),
      );
    });

    it('come back as they were after a restart: the run in flight is queued again with its run and limit', async () => {
      const { coordinator, store } = farm();
      const { jobIds } = await coordinator.submit([
        pigeons({ policy: 'probe', patienceSec: 1, maxHorizon: 5 }),
      ]);
      const [id] = jobIds as [string];
      await coordinator.handleReport(gaveWay(id, 4, 1000));
      await coordinator.handleReport(gaveWay(id, 5, 1500));

      const restarted = farm({ store });
      await expect(restarted.coordinator.resume()).resolves.toBe(1);
      expect(runs(restarted.dispatch, id)).toEqual([
        [3, undefined, undefined],
        [5, 3000, 2],
      ]);
    });
  });

  describe('a late or repeated report', () => {
    it("of a horizon's start is applied once, and not after the horizon was cancelled", async () => {
      const { coordinator, store, progress } = farm();
      const { jobIds } = await coordinator.submit([pigeons()]);
      const [id] = jobIds as [string];
      await coordinator.handleReport(started(id, 4));
      await coordinator.handleReport(started(id, 4));
      expect(store.writes).toBe(1);
      expect(progress.horizons).toEqual([{ jobId: id, t: 4, state: 'running', ms: 0 }]);
      expect(progress.jobs).toEqual([expect.objectContaining({ jobId: id, status: 'running' })]);

      await coordinator.handleReport(report(id, 4, 'unsat'));
      const writes = store.writes;
      // Horizon 3 was cancelled by the UNSAT above it: its start changes nothing.
      await coordinator.handleReport(started(id, 3));
      await coordinator.handleReport(report(id, 3, 'cancelled'));
      expect(store.writes).toBe(writes);
    });

    it("of an earlier run is ignored for its start and its 'unknown'", async () => {
      const { coordinator, store, progress, id } = await secondRun();
      const writes = store.writes;
      const events = progress.horizons.length;
      await coordinator.handleReport(started(id, 4, 1));
      await coordinator.handleReport(gaveWay(id, 4, 2000));
      expect(store.writes).toBe(writes);
      expect(progress.horizons).toHaveLength(events);

      await coordinator.handleReport(started(id, 4, 2));
      expect(store.writes).toBe(writes + 1);
      await coordinator.handleReport(gaveWay(id, 4, 2000));
      expect(store.writes).toBe(writes + 1);
      const resource = await coordinator.resource(id);
      expect(resource?.horizons.find((h) => h.t === 4)).toMatchObject({ result: 'running', runs: 2 });
    });

    it('of an earlier run counts for an answer', async () => {
      const { coordinator, dispatch, id } = await secondRun();
      await coordinator.handleReport(started(id, 4, 2));
      await coordinator.handleReport(report(id, 4, 'sat', { run: 1 }));
      await expect(coordinator.resource(id)).resolves.toMatchObject({
        status: 'optimal',
        horizon: 4,
        bounds: { lower: 4, upper: 4 },
      });
      // The second run has nothing left to find: told as soon as decided, and again once marked.
      const stops = dispatch.stopped.filter((s) => s.ids.includes(`${id}.t4.r2`));
      expect(stops.map((s) => s.reason)).toEqual(['job-finished', 'job-finished']);
    });

    it('of an earlier run with an answer stops the run in flight of that horizon', async () => {
      const { coordinator, dispatch } = farm();
      const { jobIds } = await coordinator.submit([
        pigeons({ policy: 'probe', patienceSec: 1, maxHorizon: 5 }),
      ]);
      const [id] = jobIds as [string];
      await coordinator.handleReport(gaveWay(id, 4, 1000));
      await coordinator.handleReport(gaveWay(id, 5, 1500));
      await coordinator.handleReport(started(id, 5, 2));

      // The first run's worker lost the horizon while cut off, and its answer comes back late.
      await coordinator.handleReport(report(id, 5, 'sat', { run: 1 }));
      await expect(coordinator.resource(id)).resolves.toMatchObject({
        status: 'running',
        bounds: { lower: 3, upper: 5 },
      });
      expect(dispatch.stopped).toContainEqual(
        expect.objectContaining({ ids: [`${id}.t5.r2`], reason: 'dominated' }),
      );
      expect(dispatch.removed).toContainEqual([`${id}.t5.r2`]);
    });
  });

  describe("a horizon's failure", () => {
    function failed(jobId: string, t: number, run: number): HorizonReport {
      return {
        kind: 'failed',
        jobId,
        game: 'pigeons',
        t,
        worker: 'host-b:1',
        run,
        error: 'kissat exited with signal SIGSEGV',
      };
    }

    it('fails the job when it is the run in flight, and is ignored for an earlier run', async () => {
      const { coordinator, store, id } = await secondRun();
      await coordinator.handleReport(started(id, 4, 2));
      const writes = store.writes;
      await coordinator.handleReport(failed(id, 4, 1));
      expect(store.writes).toBe(writes);
      await expect(coordinator.resource(id)).resolves.toMatchObject({ status: 'running' });

      await coordinator.handleReport(failed(id, 4, 2));
      await expect(coordinator.resource(id)).resolves.toMatchObject({
        status: 'failed',
        error: 'horizon 4: kissat exited with signal SIGSEGV',
      });
    });
  });

  describe('a lost horizon', () => {
    it('fails the job when it is the run in flight, and is ignored for an earlier run', async () => {
      const { coordinator, store, id } = await secondRun();
      const writes = store.writes;
      await coordinator.horizonLost(`${id}.t4`, 'job stalled more than allowable limit');
      expect(store.writes).toBe(writes);
      await coordinator.horizonLost(`${id}.t4.r2`, 'job stalled more than allowable limit');
      await expect(coordinator.resource(id)).resolves.toMatchObject({
        status: 'failed',
        error: 'horizon 4 was lost: job stalled more than allowable limit',
      });
    });
  });

  describe('the deadline', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });

    afterEach(() => {
      vi.useRealTimers();
    });

    /** Moves the coordinator's clock and its timers together. */
    async function elapse(f: ReturnType<typeof farm>, ms: number): Promise<void> {
      f.advance(ms);
      await vi.advanceTimersByTimeAsync(ms);
      await settled();
    }

    it('ends a job without a plan unknown, stopping its horizons in flight as timed out', async () => {
      const f = farm();
      const { coordinator, store, dispatch, progress } = f;
      const { jobIds } = await coordinator.submit([pigeons({ timeoutSec: 10 })]);
      const [id] = jobIds as [string];
      expect(dispatch.queued.map((h) => h.payload.deadline)).toEqual([NOW + 10_000, NOW + 10_000]);
      await coordinator.handleReport(started(id, 3));

      await elapse(f, 9_999);
      await expect(coordinator.resource(id)).resolves.toMatchObject({ status: 'running' });
      await elapse(f, 1);
      await expect(coordinator.resource(id)).resolves.toMatchObject({
        status: 'unknown',
        bounds: { lower: 3 },
        finishedAt: new Date(NOW + 10_000).toISOString(),
      });
      const horizons = [`${id}.t3`, `${id}.t4`];
      expect(dispatch.stopped).toContainEqual({ ids: horizons, reason: 'timeout', decidedAt: NOW + 10_000 });
      expect(dispatch.removed).toContainEqual(horizons);
      expect(store.markers).toEqual(new Set([...horizons, id]));
      expect(progress.jobs.at(-1)).toMatchObject({ jobId: id, status: 'unknown' });
    });

    it('ends a job with the plan found so far satisfiable with it', async () => {
      const f = farm();
      const { coordinator } = f;
      const { jobIds } = await coordinator.submit([pigeons({ timeoutSec: 10, parallelism: 3 })]);
      const [id] = jobIds as [string];
      await coordinator.handleReport(report(id, 5, 'sat'));
      const { solution } = (await coordinator.resource(id))!;

      await elapse(f, 10_000);
      await expect(coordinator.resource(id)).resolves.toMatchObject({
        status: 'satisfiable',
        horizon: 5,
        solution,
        bounds: { lower: 3, upper: 5 },
      });
    });

    it('ends the job even when its timer fires a moment before the clock reaches it', async () => {
      // Node's timers may fire a millisecond before Date.now() has moved by their delay.
      const f = farm();
      const { coordinator } = f;
      const { jobIds } = await coordinator.submit([pigeons({ timeoutSec: 10 })]);
      const [id] = jobIds as [string];
      f.advance(9_999);
      await vi.advanceTimersByTimeAsync(10_000);
      await settled();
      await expect(coordinator.resource(id)).resolves.toMatchObject({ status: 'queued' });

      await elapse(f, 1);
      await expect(coordinator.resource(id)).resolves.toMatchObject({ status: 'unknown' });
    });

    it('of a job that ended before it leaves nothing to do', async () => {
      const f = farm();
      const { coordinator, store } = f;
      const { jobIds } = await coordinator.submit([pigeons({ timeoutSec: 10 })]);
      const [id] = jobIds as [string];
      await coordinator.handleReport(report(id, 4, 'sat'));
      await coordinator.handleReport(report(id, 3, 'unsat'));
      expect(vi.getTimerCount()).toBe(0);
      const writes = store.writes;
      await elapse(f, 10_000);
      expect(store.writes).toBe(writes);
      await expect(coordinator.resource(id)).resolves.toMatchObject({ status: 'optimal' });
    });

    it('is kept by a coordinator that resumes the job, and one already past ends it at once', async () => {
      const first = farm();
      const { jobIds } = await first.coordinator.submit([
        pigeons({ timeoutSec: 10 }),
        pigeons({ timeoutSec: 30 }),
      ]);
      const [short, long] = jobIds as [string, string];
      first.coordinator.close();

      const restarted = farm({ store: first.store });
      restarted.advance(20_000);
      await restarted.coordinator.resume();
      await expect(restarted.coordinator.resource(short)).resolves.toMatchObject({ status: 'unknown' });
      await expect(restarted.coordinator.resource(long)).resolves.toMatchObject({ status: 'queued' });
      await elapse(restarted, 10_000);
      await expect(restarted.coordinator.resource(long)).resolves.toMatchObject({ status: 'unknown' });
      expect(restarted.dispatch.stopped).toContainEqual(
        expect.objectContaining({ ids: [`${long}.t3`, `${long}.t4`], reason: 'timeout' }),
      );
    });
  });
});
