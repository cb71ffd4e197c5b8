import {
  type BatchResource,
  type BatchSummary,
  isFinalStatus,
  type JobResource,
  type JobStatus,
} from '@satfarm/queue';

import type { ArchivedBatchSummary, JobArchive } from './job-archive.js';
import type { JobInstances } from './job-instances.js';
import { buildJobResource } from './job-resource.builder.js';
import type { JobStore, StoredBatch } from './job.store.js';

/** What the read side uses of the job store (`JobStore`, Redis). */
export type QueryStore = Pick<
  JobStore,
  | 'load'
  | 'finalResource'
  | 'finalResources'
  | 'ids'
  | 'prune'
  | 'statuses'
  | 'batch'
  | 'batchJobIds'
  | 'batchIds'
  | 'pruneBatches'
>;

/**
 * The farm's read side: jobs' and batches' resources as Redis has them while it keeps them, else
 * as the store of record has them (docs/batches.md). It decides nothing and writes nothing but the
 * pruning of Redis' indexes.
 */
export class JobQueries {
  constructor(
    private readonly store: QueryStore,
    private readonly archive: JobArchive | undefined,
    private readonly instances: Pick<JobInstances, 'render'>,
    private readonly clock: () => number,
  ) {}

  /**
   * A job's resource (the final one once it is over), or undefined. With `render`, a job still
   * running carries its game's drawing of the instance alone (a final one always has the drawing
   * of its answer).
   */
  async resource(jobId: string, render = false): Promise<JobResource | undefined> {
    // A job Redis no longer has is read from the store of record (docs/batches.md).
    return (await this.liveResource(jobId, render)) ?? this.archive?.job(jobId);
  }

  /** A job's resource as Redis has it, or undefined. */
  private async liveResource(jobId: string, render = false): Promise<JobResource | undefined> {
    const final = await this.store.finalResource(jobId);
    if (final !== undefined) return final;
    const record = await this.store.load(jobId);
    if (record === undefined) return undefined;
    const drawing = render ? await this.instances.render(record.meta, undefined) : undefined;
    return buildJobResource(record.meta, record.state, this.clock(), drawing);
  }

  /** Jobs in `status` (or all), newest first. */
  async list(status: JobStatus | undefined, offset: number, limit: number): Promise<JobResource[]> {
    const ids = await this.store.ids(status, offset, limit);
    // Redis' index outlives the jobs it lists: the ones gone are pruned, not read elsewhere.
    const resources = await Promise.all(ids.map((id) => this.liveResource(id)));
    await this.store.prune(ids.filter((_, i) => resources[i] === undefined));
    return resources.filter((r): r is JobResource => r !== undefined);
  }

  /** A batch with its job ids in order, or undefined (docs/batches.md). */
  async batch(batchId: string): Promise<BatchResource | undefined> {
    const summary = await this.batchSummary(batchId);
    if (summary === undefined) return undefined;
    const inRedis = await this.store.batchJobIds(batchId);
    const jobIds =
      inRedis.length > 0 || this.archive === undefined ? inRedis : await this.archivedJobIds(batchId);
    return { ...summary, jobIds };
  }

  /** A batch's summary: from Redis while it has it, else from the store of record. */
  async batchSummary(batchId: string): Promise<BatchSummary | undefined> {
    const stored = await this.store.batch(batchId);
    if (stored !== undefined) return summaryOfBatch(stored);
    const archived = await this.archive?.batch(batchId);
    return archived === undefined ? undefined : summaryOfBatch(archived);
  }

  /** Batches, newest first: every batch of the store of record, or those Redis keeps. */
  async batches(offset: number, limit: number): Promise<BatchSummary[]> {
    const { archive, store } = this;
    if (archive !== undefined) {
      const archived = await archive.batches(offset, limit);
      // Live counts for the batches still running; the archive counts only finished jobs.
      return Promise.all(
        archived.map(async (a) => {
          const live = await store.batch(a.batchId);
          return summaryOfBatch(live ?? a);
        }),
      );
    }
    const ids = await store.batchIds(offset, limit);
    const batches = await Promise.all(ids.map((id) => store.batch(id)));
    await store.pruneBatches(ids.filter((_, i) => batches[i] === undefined));
    return batches.filter((b): b is StoredBatch => b !== undefined).map(summaryOfBatch);
  }

  /**
   * A page of a batch's jobs in submission order, optionally in one status, without drawings.
   * Undefined for an unknown batch.
   */
  async batchJobs(
    batchId: string,
    status: JobStatus | undefined,
    offset: number,
    limit: number,
  ): Promise<JobResource[] | undefined> {
    const { store, archive } = this;
    if ((await store.batch(batchId)) === undefined) {
      if ((await archive?.batch(batchId)) === undefined) return undefined;
      return (
        await archive!.batchJobs(batchId, { ...(status === undefined ? {} : { status }), offset, limit })
      ).map(withoutDrawings);
    }
    let ids = await store.batchJobIds(batchId);
    if (status !== undefined) {
      const statuses = await store.statuses(ids);
      const archived = await this.archivedStatuses(ids.filter((_, i) => statuses[i] === undefined));
      ids = ids.filter((id, i) => (statuses[i] ?? archived.get(id)) === status);
    }
    return this.resourcesOf(ids.slice(offset, offset + limit));
  }

  /**
   * Every job of a batch in submission order, without drawings, read a page at a time so that a
   * batch of any size streams in bounded memory. Undefined for an unknown batch.
   */
  async batchResults(batchId: string): Promise<AsyncIterable<JobResource> | undefined> {
    const { store, archive } = this;
    const stored = await store.batch(batchId);
    if (stored === undefined) {
      if ((await archive?.batch(batchId)) === undefined) return undefined;
      const rows = archive!.batchResults(batchId);
      return (async function* () {
        for await (const row of rows) yield withoutDrawings(row);
      })();
    }
    const pages = async function* (this: JobQueries): AsyncGenerator<JobResource> {
      for (let offset = 0; offset < stored.size; offset += RESULTS_PAGE) {
        const ids = await store.batchJobIds(batchId, offset, RESULTS_PAGE);
        yield* await this.resourcesOf(ids);
      }
    };
    return pages.call(this);
  }

  /** Resources of jobs in order: Redis' final or live one, else the store of record's. */
  private async resourcesOf(ids: string[]): Promise<JobResource[]> {
    const finals = await this.store.finalResources(ids);
    const missing = ids.filter((_, i) => finals[i] === undefined);
    const archived =
      this.archive === undefined ? new Map<string, JobResource>() : await this.archive.jobs(missing);
    const resources = await Promise.all(
      ids.map(async (id, i) => finals[i] ?? archived.get(id) ?? (await this.liveResource(id))),
    );
    return resources.filter((r): r is JobResource => r !== undefined).map(withoutDrawings);
  }

  private async archivedStatuses(ids: string[]): Promise<Map<string, JobStatus>> {
    if (this.archive === undefined || ids.length === 0) return new Map();
    const jobs = await this.archive.jobs(ids);
    return new Map([...jobs].map(([id, job]) => [id, job.status]));
  }

  private async archivedJobIds(batchId: string): Promise<string[]> {
    const ids: string[] = [];
    for await (const job of this.archive!.batchResults(batchId)) ids.push(job.id);
    return ids;
  }
}

/** Jobs read per page when a batch is exported or cancelled. */
export const RESULTS_PAGE = 500;

/** A batch's summary, its counts and whether it is done, from Redis' or the store of record's. */
export function summaryOfBatch(batch: StoredBatch | ArchivedBatchSummary): BatchSummary {
  const ended = Object.entries(batch.counts)
    .filter(([status]) => isFinalStatus(status as JobStatus))
    .reduce((sum, [, n]) => sum + n, 0);
  return {
    batchId: batch.batchId,
    createdAt: new Date(batch.createdAt).toISOString(),
    ...(batch.label === undefined ? {} : { label: batch.label }),
    ...(batch.key === undefined ? {} : { key: batch.key }),
    size: batch.size,
    counts: batch.counts,
    done: ended >= batch.size,
    finishedAt: batch.finishedAt === undefined ? null : new Date(batch.finishedAt).toISOString(),
  };
}

/** A job resource as lists and exports give it: drawings are for one job's page. */
function withoutDrawings(resource: JobResource): JobResource {
  const { render: _render, secondRender: _second, ...rest } = resource;
  return rest;
}
