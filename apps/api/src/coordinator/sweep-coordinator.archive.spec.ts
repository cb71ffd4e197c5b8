import { describe, expect, it } from 'vitest';

import { SweepCoordinator } from './sweep-coordinator.js';
import { farm, InMemoryJobArchive, pigeons, report } from './testing/coordinator.fakes.js';

/** Ends a pigeons job optimal at horizon 4 (SAT at 4, UNSAT at 3). */
async function solve(coordinator: SweepCoordinator, jobId: string): Promise<void> {
  await coordinator.handleReport(report(jobId, 4, 'sat'));
  await coordinator.handleReport(report(jobId, 3, 'unsat'));
}

describe(`${SweepCoordinator.name}: the store of record`, () => {
  it('gets each finished job once, with its place in its batch, and Redis keeps it `keepSec` more', async () => {
    const archive = new InMemoryJobArchive();
    const { coordinator, store } = farm({ archive });
    const { jobIds } = await coordinator.createBatch([pigeons(), pigeons()]);
    const [open, ended] = jobIds as [string, string];
    const single = (await coordinator.submit([pigeons()])).jobIds[0]!;
    await solve(coordinator, ended);
    await coordinator.cancel(single);

    await expect(coordinator.archiveFinished(3600)).resolves.toBe(2);
    expect(archive.saves).toEqual([[ended, single]]);
    expect(archive.jobRows.get(ended)).toEqual({
      resource: await coordinator.resource(ended),
      position: 1,
    });
    expect(archive.jobRows.get(single)).toEqual({ resource: await coordinator.resource(single) });
    expect(archive.jobRows.has(open)).toBe(false);
    expect(store.keptFor).toEqual(
      new Map([
        [ended, 3600],
        [single, 3600],
      ]),
    );

    await expect(coordinator.archiveFinished(3600)).resolves.toBe(0);
    expect(archive.saves).toHaveLength(1);
    await solve(coordinator, open);
    await expect(coordinator.archiveFinished(3600)).resolves.toBe(1);
    expect(archive.saves.at(-1)).toEqual([open]);
  });

  it('writes a group at a time', async () => {
    const archive = new InMemoryJobArchive();
    const { coordinator } = farm({ archive });
    const { jobIds } = await coordinator.submit([pigeons(), pigeons(), pigeons()]);
    for (const id of jobIds) await coordinator.cancel(id);

    await expect(coordinator.archiveFinished(60, 2)).resolves.toBe(2);
    await expect(coordinator.archiveFinished(60, 2)).resolves.toBe(1);
    await expect(coordinator.archiveFinished(60, 2)).resolves.toBe(0);
    expect(archive.saves.flat().sort()).toEqual([...jobIds].sort());
  });

  it('that fails to write loses no job: Redis keeps it, still readable, and the next call writes it', async () => {
    const archive = new InMemoryJobArchive();
    const { coordinator, store } = farm({ archive });
    const { jobIds } = await coordinator.submit([pigeons()]);
    const [id] = jobIds as [string];
    await solve(coordinator, id);
    const final = await coordinator.resource(id);

    archive.failing = true;
    await expect(coordinator.archiveFinished(3600)).rejects.toThrow(/ECONNREFUSED/);
    expect(store.unarchived.has(id)).toBe(true);
    // Its copy in Redis keeps its full time to live until the store of record has it.
    expect(store.keptFor.has(id)).toBe(false);
    await expect(coordinator.resource(id)).resolves.toEqual(final);

    archive.failing = false;
    await expect(coordinator.archiveFinished(3600)).resolves.toBe(1);
    expect(archive.jobRows.get(id)?.resource).toEqual(final);
    expect(store.unarchived.has(id)).toBe(false);
  });

  it('lets go of a finished job that Redis lost before it was written: there is nothing left to write', async () => {
    const archive = new InMemoryJobArchive();
    const { coordinator, store } = farm({ archive });
    const { jobIds } = await coordinator.submit([pigeons(), pigeons()]);
    const [lost, kept] = jobIds as [string, string];
    await coordinator.cancel(lost);
    await coordinator.cancel(kept);
    store.expire(lost);

    await expect(coordinator.archiveFinished(3600)).resolves.toBe(1);
    expect([...archive.jobRows.keys()]).toEqual([kept]);
    expect(store.unarchived.size).toBe(0);
  });

  it('answers for the jobs and batches Redis no longer has', async () => {
    const archive = new InMemoryJobArchive();
    const { coordinator, store } = farm({ archive });
    const { batchId, jobIds } = await coordinator.createBatch([pigeons(), pigeons(), pigeons()], {
      label: 'cubes',
    });
    const [first, second, third] = jobIds as [string, string, string];
    await solve(coordinator, third);
    await coordinator.cancel(first);
    await solve(coordinator, second);
    const finals = await Promise.all(jobIds.map((id) => coordinator.resource(id)));
    const summary = await coordinator.batchSummary(batchId);
    expect(summary).toMatchObject({ size: 3, done: true, counts: { optimal: 2, cancelled: 1 } });
    await coordinator.archiveFinished(3600);
    store.expireBatch(batchId);

    await expect(coordinator.resource(first)).resolves.toEqual(finals[0]);
    await expect(coordinator.batch(batchId)).resolves.toEqual({ ...summary, jobIds });
    const results: unknown[] = [];
    for await (const job of (await coordinator.batchResults(batchId))!) results.push(job);
    expect(results).toEqual(finals);
    await expect(coordinator.batchJobs(batchId, 'optimal', 0, 10)).resolves.toEqual([finals[1], finals[2]]);
    // Over and gone from Redis: a cancel changes nothing and answers the batch.
    await expect(coordinator.cancelBatch(batchId)).resolves.toEqual(summary);
    await expect(coordinator.appendToBatch(batchId, 3, [pigeons()])).rejects.toMatchObject({
      size: 3,
      reason: 'the batch is over and takes no more jobs',
    });
  });
});
