import type { PortfolioRecord } from '@satfarm/engine';
import type { JobResource, JobStatus } from '@satfarm/queue';

/** A batch as the store of record keeps it. */
export interface ArchivedBatch {
  batchId: string;
  /** Epoch ms. */
  createdAt: number;
  label?: string;
  /** The idempotency key it was created with. */
  key?: string;
  /** Jobs in the batch. */
  size: number;
}

/** A batch read back from the store of record, with what its archived jobs say. */
export interface ArchivedBatchSummary extends ArchivedBatch {
  /** Archived (finished) jobs by status. */
  counts: Partial<Record<JobStatus, number>>;
  /** Epoch ms of the last archived job's end, once every job of the batch is archived. */
  finishedAt?: number;
}

/** A finished job to record. */
export interface ArchivedJob {
  /** The final resource, drawings included, as `GET /v1/jobs/:id` answers it. */
  resource: JobResource;
  /** Its place in its batch (0-based), when it has one. */
  position?: number;
}

/**
 * The store of record of finished jobs and of batches (docs/batches.md, "Store of record"): the
 * coordinator writes here, and reads here what Redis no longer has. Every write is idempotent by
 * id, so a write repeated after a crash keeps one row.
 */
export interface JobArchive {
  /** Creates or brings up to date the schema. */
  migrate(): Promise<void>;
  /** The portfolio's record of races kept in this store, where it keeps one (docs/farm.md#portfolio). */
  portfolioRecord?(): PortfolioRecord;
  /** Records a batch, or its new size (a size never shrinks). */
  saveBatch(batch: ArchivedBatch): Promise<void>;
  /** Records finished jobs. */
  saveJobs(jobs: ArchivedJob[]): Promise<void>;
  job(jobId: string): Promise<JobResource | undefined>;
  /** The jobs among `jobIds` that are archived. */
  jobs(jobIds: string[]): Promise<Map<string, JobResource>>;
  batch(batchId: string): Promise<ArchivedBatchSummary | undefined>;
  batchByKey(key: string): Promise<ArchivedBatch | undefined>;
  /** Batches newest first. */
  batches(offset: number, limit: number): Promise<ArchivedBatchSummary[]>;
  /** A batch's archived jobs in submission order, optionally in one status. */
  batchJobs(
    batchId: string,
    page: { status?: JobStatus; offset: number; limit: number },
  ): Promise<JobResource[]>;
  /** Every archived job of a batch in submission order, read a page at a time. */
  batchResults(batchId: string): AsyncIterable<JobResource>;
  /** Deletes jobs and batches finished before `before` (epoch ms); returns how many jobs. */
  purgeFinishedBefore(before: number): Promise<number>;
  close(): Promise<void>;
}
