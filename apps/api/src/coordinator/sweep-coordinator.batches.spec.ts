import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { PayloadError } from '@satfarm/queue';

import { BatchOffsetConflict, SweepCoordinator } from './sweep-coordinator.js';
import {
  farm,
  InMemoryJobArchive,
  NOW,
  pigeons,
  rejection,
  report,
  settled,
} from './testing/coordinator.fakes.js';

/** Ends a pigeons job optimal at horizon 4 (SAT at 4, UNSAT at 3). */
async function solve(coordinator: SweepCoordinator, jobId: string): Promise<void> {
  await coordinator.handleReport(report(jobId, 4, 'sat'));
  await coordinator.handleReport(report(jobId, 3, 'unsat'));
}

describe(`${SweepCoordinator.name}: batches`, () => {
  describe('created', () => {
    it('store their jobs in order, each queued with its first horizons under the batch as its tenant', async () => {
      const archive = new InMemoryJobArchive();
      const { coordinator, dispatch } = farm({ archive });
      const created = await coordinator.createBatch([pigeons(), pigeons({ parallelism: 1 })], {
        label: 'cubes',
        owner: 'key-a',
      });
      const { batchId, jobIds } = created;
      expect(created).toMatchObject({ size: 2, existing: false });
      expect(jobIds).toHaveLength(2);
      const [first, second] = jobIds as [string, string];
      expect(dispatch.queued.map((h) => [h.payload.jobId, h.payload.t, h.tenant])).toEqual([
        [first, 3, `key-a/${batchId}`],
        [first, 4, `key-a/${batchId}`],
        [second, 3, `key-a/${batchId}`],
      ]);
      await expect(coordinator.batch(batchId)).resolves.toMatchObject({
        batchId,
        label: 'cubes',
        size: 2,
        counts: { queued: 2 },
        done: false,
        finishedAt: null,
        jobIds,
      });
      await expect(coordinator.resource(second)).resolves.toMatchObject({ batchId, status: 'queued' });
      // The store of record knows the batch from its creation, before any job of it ends.
      expect(archive.batchRows.get(batchId)).toMatchObject({ label: 'cubes', size: 2 });
    });

    it('again with the same key answer the batch the key made, storing and queueing nothing', async () => {
      const { coordinator, store, dispatch } = farm();
      const first = await coordinator.createBatch([pigeons(), pigeons()], { key: 'nightly' });
      const queued = dispatch.queued.length;

      const again = await coordinator.createBatch([pigeons(), pigeons()], { key: 'nightly' });
      expect(again).toEqual({ batchId: first.batchId, jobIds: first.jobIds, size: 2, existing: true });
      expect(store.jobs.size).toBe(2);
      expect(store.batches.size).toBe(1);
      expect(dispatch.queued).toHaveLength(queued);
    });

    it('with a key, free the key when the batch could not be made, so that a retry makes it', async () => {
      const archive = new InMemoryJobArchive();
      const { coordinator, store, dispatch } = farm({ archive });
      archive.failing = true;
      await expect(coordinator.createBatch([pigeons()], { key: 'nightly' })).rejects.toThrow(/ECONNREFUSED/);
      expect(store.jobs.size).toBe(0);
      expect(dispatch.queued).toEqual([]);
      expect(store.batchKeys.has('nightly')).toBe(false);

      archive.failing = false;
      const retried = await coordinator.createBatch([pigeons()], { key: 'nightly' });
      expect(retried).toMatchObject({ existing: false, size: 1 });
      expect(store.batchKeys.get('nightly')).toBe(retried.batchId);
    });
  });

  describe('with a bad job', () => {
    it("refuse the whole part, naming the job's field; the corrected part is then taken at the same offset", async () => {
      const { coordinator, store, dispatch } = farm();
      const { batchId } = await coordinator.createBatch([pigeons()]);
      const queued = dispatch.queued.length;

      const err = await rejection(
        coordinator.appendToBatch(batchId, 1, [pigeons(), pigeons(), pigeons({ policy: 'sideways' })]),
      );
      expect(err).toBeInstanceOf(PayloadError);
      expect((err as PayloadError).field).toBe('jobs[2].options.policy');
      expect(store.jobs.size).toBe(1);
      expect(dispatch.queued).toHaveLength(queued);
      await expect(coordinator.batchSummary(batchId)).resolves.toMatchObject({ size: 1 });

      const appended = await coordinator.appendToBatch(batchId, 1, [pigeons(), pigeons(), pigeons()]);
      expect(appended).toMatchObject({ batchId, size: 4, existing: false });
    });

    it('that fails while it runs fail alone: the other jobs go on and the counts say which', async () => {
      const { coordinator } = farm();
      const { batchId, jobIds } = await coordinator.createBatch([pigeons(), pigeons()]);
      const [broken, sound] = jobIds as [string, string];
      await coordinator.handleReport({
        kind: 'failed',
        jobId: broken,
        game: 'pigeons',
        t: 3,
        worker: 'host-a:1',
        error: 'kissat exited with signal SIGSEGV',
      });
      await expect(coordinator.resource(sound)).resolves.toMatchObject({ status: 'queued' });
      await expect(coordinator.batchSummary(batchId)).resolves.toMatchObject({
        counts: { failed: 1, queued: 1 },
        done: false,
      });

      await solve(coordinator, sound);
      await expect(coordinator.batchSummary(batchId)).resolves.toMatchObject({
        counts: { failed: 1, optimal: 1 },
        done: true,
      });
      const jobs = await coordinator.batchJobs(batchId, 'failed', 0, 10);
      expect(jobs?.map((j) => [j.id, j.error])).toEqual([
        [broken, 'horizon 3: kissat exited with signal SIGSEGV'],
      ]);
    });
  });

  describe('appended to', () => {
    it("take the part at the batch's size, placing its jobs after the others; the store of record learns the size", async () => {
      const archive = new InMemoryJobArchive();
      const { coordinator, dispatch } = farm({ archive });
      const { batchId, jobIds } = await coordinator.createBatch([pigeons()]);
      const part = await coordinator.appendToBatch(batchId, 1, [pigeons(), pigeons()], 'key-a');
      expect(part).toMatchObject({ batchId, size: 3, existing: false });
      const ids = [...jobIds, ...(part?.jobIds ?? [])];
      await expect(coordinator.batch(batchId)).resolves.toMatchObject({ size: 3, jobIds: ids });
      expect(new Set(dispatch.queued.map((h) => h.payload.jobId))).toEqual(new Set(ids));
      expect(archive.batchRows.get(batchId)?.size).toBe(3);
    });

    it('again with the same part answer its jobs and queue nothing; another offset is a conflict naming the size', async () => {
      const { coordinator, store, dispatch } = farm();
      const { batchId } = await coordinator.createBatch([pigeons()]);
      const part = await coordinator.appendToBatch(batchId, 1, [pigeons(), pigeons()]);
      const queued = dispatch.queued.length;

      const again = await coordinator.appendToBatch(batchId, 1, [pigeons(), pigeons()]);
      expect(again).toEqual({ ...part, existing: true });
      expect(store.jobs.size).toBe(3);
      expect(dispatch.queued).toHaveLength(queued);

      const err = await rejection(coordinator.appendToBatch(batchId, 5, [pigeons()]));
      expect(err).toBeInstanceOf(BatchOffsetConflict);
      expect(err).toMatchObject({ size: 3, field: 'offset' });
      await expect(coordinator.appendToBatch('no-such-batch', 1, [pigeons()])).resolves.toBeUndefined();
    });
  });

  describe('progress', () => {
    beforeEach(() => {
      vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    });

    afterEach(() => {
      vi.useRealTimers();
    });

    it('sends the counts a moment after its jobs end, once for several changes, and once when the batch is done', async () => {
      const { coordinator, progress } = farm();
      const { batchId, jobIds } = await coordinator.createBatch([pigeons(), pigeons()]);
      const [first, second] = jobIds as [string, string];
      await vi.advanceTimersByTimeAsync(250);
      await settled();
      expect(progress.batches).toEqual([{ batchId, counts: { queued: 2 }, done: false }]);

      await coordinator.handleReport(report(first, 3, 'unsat'));
      await coordinator.handleReport(report(second, 3, 'unsat'));
      await coordinator.handleReport(report(first, 4, 'sat'));
      await vi.advanceTimersByTimeAsync(249);
      await settled();
      expect(progress.batches).toHaveLength(1);
      await vi.advanceTimersByTimeAsync(1);
      await settled();
      expect(progress.batches.at(-1)).toEqual({ batchId, counts: { optimal: 1, running: 1 }, done: false });
      expect(progress.batches).toHaveLength(2);

      await coordinator.handleReport(report(second, 4, 'sat'));
      await vi.advanceTimersByTimeAsync(250);
      await settled();
      expect(progress.batches.at(-1)).toEqual({ batchId, counts: { optimal: 2 }, done: true });
      expect(progress.batches).toHaveLength(3);
    });
  });

  describe('cancelled', () => {
    it('cancel the jobs of the batch not over, and nothing else', async () => {
      const { coordinator, store, dispatch } = farm();
      const { batchId, jobIds } = await coordinator.createBatch([pigeons(), pigeons(), pigeons()]);
      const [done, running, queued] = jobIds as [string, string, string];
      const other = (await coordinator.createBatch([pigeons()])).jobIds[0]!;
      const single = (await coordinator.submit([pigeons()])).jobIds[0]!;
      await solve(coordinator, done);
      await coordinator.handleReport({
        kind: 'started',
        jobId: running,
        game: 'pigeons',
        t: 3,
        worker: 'w:1',
        at: NOW,
      });
      const finished = await coordinator.resource(done);
      dispatch.stopped.length = 0;

      const summary = await coordinator.cancelBatch(batchId);
      expect(summary).toMatchObject({ batchId, counts: { optimal: 1, cancelled: 2 }, done: true });
      await expect(coordinator.resource(done)).resolves.toEqual(finished);
      for (const id of [running, queued]) {
        await expect(coordinator.resource(id)).resolves.toMatchObject({ status: 'cancelled' });
        expect(dispatch.stopped).toContainEqual(
          expect.objectContaining({ ids: [`${id}.t3`, `${id}.t4`], reason: 'job-cancelled' }),
        );
      }
      expect(store.statusOf(other)).toBe('queued');
      expect(store.statusOf(single)).toBe('queued');
      expect(dispatch.stoppedIds.filter((id) => !id.startsWith(running) && !id.startsWith(queued))).toEqual(
        [],
      );

      const writes = store.writes;
      await expect(coordinator.cancelBatch(batchId)).resolves.toMatchObject({ done: true });
      expect(store.writes).toBe(writes);
      await expect(coordinator.cancelBatch('no-such-batch')).resolves.toBeUndefined();
    });
  });
});
