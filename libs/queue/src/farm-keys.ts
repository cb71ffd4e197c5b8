/**
 * The farm's own Redis keys, all under `<prefix>:farm:` (BullMQ's queues live under
 * `<prefix>:<queue name>:`, so the two never collide). A prefix per deployment, or per test file,
 * keeps farms sharing one Redis apart.
 */
export class FarmKeys {
  constructor(readonly prefix: string) {}

  /** Hash: one job (request, sweep state, final resource). */
  job(jobId: string): string {
    return `${this.prefix}:farm:job:${jobId}`;
  }

  /** Sorted set of the job ids in one status, scored by creation time. */
  jobsIn(status: string): string {
    return `${this.prefix}:farm:jobs:${status}`;
  }

  /** Sorted set of every job id, scored by creation time. */
  get allJobs(): string {
    return `${this.prefix}:farm:jobs:all`;
  }

  /** Hash: one batch (creation time, label, key, size, finish time). */
  batch(batchId: string): string {
    return `${this.prefix}:farm:batch:${batchId}`;
  }

  /** List: a batch's job ids in submission order. */
  batchJobs(batchId: string): string {
    return `${this.prefix}:farm:batch:${batchId}:jobs`;
  }

  /** Hash: how many of a batch's jobs are in each status. */
  batchCounts(batchId: string): string {
    return `${this.prefix}:farm:batch:${batchId}:counts`;
  }

  /** String: the batch created with an idempotency key. */
  batchKey(key: string): string {
    return `${this.prefix}:farm:batch-key:${key}`;
  }

  /** Sorted set of every batch id, scored by creation time. */
  get allBatches(): string {
    return `${this.prefix}:farm:batches`;
  }

  /**
   * Hash: the portfolio's record of races for one game and expected answer (docs/farm.md#portfolio),
   * three counters per configuration: `<config>|runs`, `<config>|wins`, `<config>|winMs`.
   */
  portfolioRecord(game: string, expected: string): string {
    return `${this.prefix}:farm:portfolio:${game}:${expected}`;
  }

  /** String: a worker process's slot count, kept while it lives (`GET /v1/farm`). */
  workerSlots(workerName: string): string {
    return `${this.prefix}:farm:worker-slots:${workerName}`;
  }

  /** Set: ids of final jobs not yet written to the store of record. */
  get unarchived(): string {
    return `${this.prefix}:farm:unarchived`;
  }

  /**
   * Marker of a cancelled horizon job id, or of a whole job (every horizon of it): a worker
   * checks it when a horizon starts, so a cancel that arrives before the start still holds.
   */
  cancelled(id: string): string {
    return `${this.prefix}:farm:cancelled:${id}`;
  }

  /** Pub/sub channel every worker listens on for cancels of running horizons. */
  get cancelChannel(): string {
    return `${this.prefix}:farm:cancel`;
  }

  /**
   * Sorted set: one tenant's horizons held back by the fair-share gate (docs/farm.md, "Fair
   * share"), by horizon job id, ordered by priority then arrival (`pendingScore`).
   */
  fairPending(tenant: string): string {
    return `${this.fairPendingPrefix}${tenant}`;
  }

  /** The start of every `fairPending` key (the gate's scripts build them from tenant names). */
  get fairPendingPrefix(): string {
    return `${this.prefix}:farm:fair:pending:`;
  }

  /** Sorted set of the tenants with horizons pending, scored by their pass. */
  get fairTenants(): string {
    return `${this.prefix}:farm:fair:tenants`;
  }

  /** Hash: every pending horizon's job id to its entry (tenant, priority, payload). */
  get fairHorizons(): string {
    return `${this.prefix}:farm:fair:horizons`;
  }

  /** Hash: the gate's farm pass (`pass`), arrival counter (`seq`) and change counter (`version`). */
  get fairClock(): string {
    return `${this.prefix}:farm:fair:clock`;
  }

  /** Rate-limit counters. */
  rate(key: string): string {
    return `${this.prefix}:farm:rate:${key}`;
  }

  /** Key prefix of the socket.io Redis adapter. */
  get socketIo(): string {
    return `${this.prefix}:socket.io`;
  }
}
