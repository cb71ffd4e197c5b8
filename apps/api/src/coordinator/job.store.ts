import type { Redis } from 'ioredis';

import { type FarmKeys, isFinalStatus, JOB_STATUSES, type JobResource, type JobStatus } from '@satfarm/queue';
import { parseSweepState } from '@satfarm/sweep';

import type { JobMeta, JobRecord, JobState } from './job-record.js';

/** A new job to store. */
export interface NewJob {
  meta: JobMeta;
  /** The instance as the client sent it. */
  instance: unknown;
  state: JobState;
  /** Set when the job is final from the start. */
  resource?: JobResource;
}

/** A state change to write, if the stored version is still the one read. */
export interface JobWrite {
  state: JobState;
  /** Set when the job becomes final: written once and kept for the job's time to live. */
  resource?: JobResource;
  /** Cancel markers to set (horizon job ids, or the job id for all its horizons). */
  markers: string[];
}

/** A batch as stored. */
export interface StoredBatch {
  batchId: string;
  /** Epoch ms. */
  createdAt: number;
  label?: string;
  key?: string;
  /** Jobs in the batch. */
  size: number;
  /** How many of its jobs are in each status. */
  counts: Partial<Record<JobStatus, number>>;
  /** Epoch ms when its last job ended, once every job has. */
  finishedAt?: number;
}

/** Jobs that make a batch or grow one, at `offset`. */
export interface BatchPart {
  batchId: string;
  createdAt: number;
  label?: string;
  key?: string;
  offset: number;
}

// Compare-and-set of a job's state: the version must still be the one read. Moves the job between
// the per-status indexes and its batch's counts, stores the final resource with an expiry (and
// marks it for the store of record), and sets cancel markers, all in one step, so a crash never
// leaves a decided cancel without its marker nor a batch's counts off by one.
const UPDATE_JOB = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(ARGV[1]) + 1), 'state', ARGV[2], 'status', ARGV[3])
if KEYS[2] ~= KEYS[3] then
  redis.call('ZREM', KEYS[2], ARGV[5])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
  if ARGV[10] ~= '' then
    redis.call('HINCRBY', KEYS[4], ARGV[10], -1)
    redis.call('HINCRBY', KEYS[4], ARGV[3], 1)
  end
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'resource', ARGV[6])
  redis.call('EXPIRE', KEYS[1], ARGV[7])
  if ARGV[11] == '1' then redis.call('SADD', KEYS[5], ARGV[5]) end
end
for i = 6, #KEYS do redis.call('SET', KEYS[i], ARGV[9], 'EX', ARGV[8]) end
return 1
`;

// Appends job ids to a batch if it holds exactly \`offset\` jobs, and counts them by status.
const APPEND_BATCH = `
if redis.call('LLEN', KEYS[2]) ~= tonumber(ARGV[1]) then return 0 end
local n = tonumber(ARGV[7])
for i = 1, n do
  redis.call('RPUSH', KEYS[2], ARGV[7 + i])
  redis.call('HINCRBY', KEYS[3], ARGV[7 + n + i], 1)
end
if tonumber(ARGV[1]) == 0 then
  redis.call('HSET', KEYS[1], 'createdAt', ARGV[2])
  if ARGV[3] ~= '' then redis.call('HSET', KEYS[1], 'label', ARGV[3]) end
  if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'key', ARGV[4]) end
  redis.call('ZADD', KEYS[4], ARGV[2], ARGV[6])
end
redis.call('HSET', KEYS[1], 'size', tostring(tonumber(ARGV[1]) + n))
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], ARGV[5]) end
return 1
`;

// Notes the end of a job of a batch (epoch ms): the batch's last job end so far, the latest
// winning whatever order coordinators write in; it is the batch's finishedAt once all are over.
const BATCH_JOB_ENDED = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
if tonumber(redis.call('HGET', KEYS[1], 'finishedAt') or '0') < tonumber(ARGV[1]) then
  redis.call('HSET', KEYS[1], 'finishedAt', ARGV[1])
end
return 1
`;

const MARKER_TTL_SEC = 24 * 3600;
const MAX_CAS_ATTEMPTS = 50;

type ScriptCommand = (numKeys: number, ...args: Array<string | number>) => Promise<number>;
interface StoreCommands {
  satfarmUpdateJob: ScriptCommand;
  satfarmAppendBatch: ScriptCommand;
  satfarmBatchJobEnded: ScriptCommand;
}

/**
 * The farm's jobs in Redis: one hash per job (meta, instance, state JSON with a version, final
 * resource), a sorted set per status and one of all jobs (by creation time) for listing, one hash
 * per batch. State changes are compare-and-set on the version, so coordinators on several API
 * replicas, or one restarted midway, never overwrite each other's decisions.
 */
export class JobStore {
  private readonly metas = new Map<string, JobMeta>();

  constructor(
    private readonly redis: Redis,
    readonly keys: FarmKeys,
    private readonly ttlSec: number,
    /** Whether final jobs are marked for the store of record (`unarchived`). */
    private readonly archived = false,
  ) {
    if (!('satfarmUpdateJob' in redis)) redis.defineCommand('satfarmUpdateJob', { lua: UPDATE_JOB });
    if (!('satfarmAppendBatch' in redis)) redis.defineCommand('satfarmAppendBatch', { lua: APPEND_BATCH });
    if (!('satfarmBatchJobEnded' in redis))
      redis.defineCommand('satfarmBatchJobEnded', { lua: BATCH_JOB_ENDED });
  }

  private get commands(): StoreCommands {
    return this.redis as unknown as StoreCommands;
  }

  /**
   * Stores new jobs, and with `batch` appends them to it (creating it at offset 0). Returns false,
   * storing nothing, when the batch does not hold exactly `batch.offset` jobs.
   */
  async create(jobs: NewJob[], batch?: BatchPart): Promise<boolean> {
    const tx = this.redis.multi();
    for (const { meta, instance, state, resource } of jobs) {
      const key = this.keys.job(meta.id);
      tx.hset(key, {
        meta: JSON.stringify(meta),
        instance: JSON.stringify(instance),
        state: JSON.stringify(state),
        v: '1',
        status: state.status,
        ...(resource === undefined ? {} : { resource: JSON.stringify(resource) }),
      });
      if (resource !== undefined) {
        tx.expire(key, this.ttlSec);
        if (this.archived) tx.sadd(this.keys.unarchived, meta.id);
      }
    }
    await tx.exec();
    if (batch !== undefined) {
      const { batchId } = batch;
      const appended = await this.commands.satfarmAppendBatch(
        4,
        this.keys.batch(batchId),
        this.keys.batchJobs(batchId),
        this.keys.batchCounts(batchId),
        this.keys.allBatches,
        batch.offset,
        batch.createdAt,
        batch.label ?? '',
        batch.key ?? '',
        this.ttlSec,
        batchId,
        jobs.length,
        ...jobs.map((j) => j.meta.id),
        ...jobs.map((j) => j.state.status),
      );
      if (appended !== 1) {
        await this.redis.del(...jobs.map((j) => this.keys.job(j.meta.id)));
        if (this.archived) await this.redis.srem(this.keys.unarchived, ...jobs.map((j) => j.meta.id));
        return false;
      }
      // Jobs over from the start (a plan given) end the batch as much as the others do.
      const ends = jobs.flatMap((j) => (j.resource === undefined ? [] : [j.state.finishedAt ?? Date.now()]));
      if (ends.length > 0) await this.batchJobEnded(batchId, Math.max(...ends));
    }
    const index = this.redis.multi();
    for (const { meta, state } of jobs) {
      index.zadd(this.keys.jobsIn(state.status), meta.createdAt, meta.id);
      index.zadd(this.keys.allJobs, meta.createdAt, meta.id);
      this.remember(meta);
    }
    await index.exec();
    return true;
  }

  /**
   * Claims an idempotency key for `batchId`; answers the batch that holds it when another one does
   * (the claim lasts as long as batches are kept).
   */
  async claimBatchKey(key: string, batchId: string): Promise<string | undefined> {
    const set = await this.redis.set(this.keys.batchKey(key), batchId, 'EX', this.ttlSec, 'NX');
    if (set === 'OK') return undefined;
    return (await this.redis.get(this.keys.batchKey(key))) ?? undefined;
  }

  /** Gives up a claim on an idempotency key, when its batch could not be made. */
  async releaseBatchKey(key: string, batchId: string): Promise<void> {
    if ((await this.redis.get(this.keys.batchKey(key))) === batchId)
      await this.redis.del(this.keys.batchKey(key));
  }

  /** A job's meta, state and version, or undefined if there is no such job (or it expired). */
  async load(jobId: string): Promise<JobRecord | undefined> {
    const cached = this.metas.get(jobId);
    const key = this.keys.job(jobId);
    const [metaText, stateText, v] = cached
      ? [null, ...(await this.redis.hmget(key, 'state', 'v'))]
      : await this.redis.hmget(key, 'meta', 'state', 'v');
    if (stateText === null || stateText === undefined || v === null || v === undefined) return undefined;
    const meta = cached ?? (JSON.parse(metaText!) as JobMeta);
    if (!cached) this.remember(meta);
    const raw = JSON.parse(stateText) as JobState;
    return { meta, state: { ...raw, sweep: parseSweepState(raw.sweep) }, version: Number(v) };
  }

  /** The instance of a job as the client sent it. */
  async instance(jobId: string): Promise<unknown> {
    const text = await this.redis.hget(this.keys.job(jobId), 'instance');
    return text === null ? undefined : (JSON.parse(text) as unknown);
  }

  /** The stored final resource of a job, if it is final. */
  async finalResource(jobId: string): Promise<JobResource | undefined> {
    const text = await this.redis.hget(this.keys.job(jobId), 'resource');
    return text === null ? undefined : (JSON.parse(text) as JobResource);
  }

  /**
   * Reads the job, asks `decide` what to write, and writes it if nobody changed the job meanwhile
   * (otherwise reads again and asks again). `decide` returns undefined for "nothing to change".
   * Returns the record read and the decision written, or undefined.
   */
  async update<D extends JobWrite>(
    jobId: string,
    decide: (record: JobRecord) => D | undefined | Promise<D | undefined>,
  ): Promise<{ record: JobRecord; decision: D } | undefined> {
    for (let attempt = 0; attempt < MAX_CAS_ATTEMPTS; attempt++) {
      const record = await this.load(jobId);
      if (record === undefined) return undefined;
      const decision = await decide(record);
      if (decision === undefined) return undefined;
      const { meta } = record;
      const markerKeys = decision.markers.map((id) => this.keys.cancelled(id));
      const written = await this.commands.satfarmUpdateJob(
        5 + markerKeys.length,
        this.keys.job(jobId),
        this.keys.jobsIn(record.state.status),
        this.keys.jobsIn(decision.state.status),
        meta.batchId === undefined ? this.keys.job(jobId) : this.keys.batchCounts(meta.batchId),
        this.keys.unarchived,
        ...markerKeys,
        String(record.version),
        JSON.stringify(decision.state),
        decision.state.status,
        meta.createdAt,
        jobId,
        decision.resource === undefined ? '' : JSON.stringify(decision.resource),
        this.ttlSec,
        MARKER_TTL_SEC,
        Date.now(),
        meta.batchId === undefined ? '' : record.state.status,
        this.archived ? '1' : '0',
      );
      if (written === 1) {
        if (isFinalStatus(decision.state.status)) {
          this.metas.delete(jobId);
          if (meta.batchId !== undefined)
            await this.batchJobEnded(meta.batchId, decision.state.finishedAt ?? Date.now());
        }
        return { record, decision };
      }
    }
    throw new Error(`job ${jobId}: too many concurrent updates`);
  }

  /** Job ids in `status` (all jobs without one), newest first, with paging. */
  async ids(status: JobStatus | undefined, offset: number, limit: number): Promise<string[]> {
    // ZREVRANGE counts negative indexes from the end: a stop of offset - 1 would read every job.
    if (!(limit >= 1 && offset >= 0)) return [];
    const key = status === undefined ? this.keys.allJobs : this.keys.jobsIn(status);
    return this.redis.zrevrange(key, String(offset), String(offset + limit - 1));
  }

  /** Ids of every job not final yet, oldest first. */
  async unfinishedIds(): Promise<string[]> {
    const [queued, running] = await Promise.all([
      this.redis.zrange(this.keys.jobsIn('queued'), '0', '-1'),
      this.redis.zrange(this.keys.jobsIn('running'), '0', '-1'),
    ]);
    return [...queued, ...running];
  }

  /** How many jobs are queued and running now. */
  async unfinishedCounts(): Promise<{ queued: number; running: number }> {
    const [queued, running] = await Promise.all([
      this.redis.zcard(this.keys.jobsIn('queued')),
      this.redis.zcard(this.keys.jobsIn('running')),
    ]);
    return { queued, running };
  }

  /** Forgets index entries of jobs that expired. */
  async prune(ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    const tx = this.redis.multi();
    tx.zrem(this.keys.allJobs, ...ids);
    for (const status of JOB_STATUSES) {
      tx.zrem(this.keys.jobsIn(status), ...ids);
    }
    await tx.exec();
  }

  /** Statuses of several jobs (undefined for a missing one). */
  async statuses(jobIds: string[]): Promise<Array<JobStatus | undefined>> {
    if (jobIds.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of jobIds) pipeline.hget(this.keys.job(id), 'status');
    const results = (await pipeline.exec()) ?? [];
    return results.map(([, value]) => (typeof value === 'string' ? (value as JobStatus) : undefined));
  }

  /** A batch, or undefined if there is no such batch (or it expired). */
  async batch(batchId: string): Promise<StoredBatch | undefined> {
    const [fields, counts] = await Promise.all([
      this.redis.hgetall(this.keys.batch(batchId)),
      this.redis.hgetall(this.keys.batchCounts(batchId)),
    ]);
    if (fields.createdAt === undefined) return undefined;
    const size = Number(fields.size ?? 0);
    const byStatus = countsOf(counts);
    // `finishedAt` holds the last job end so far: the batch's end only once every job is over.
    const over = fields.finishedAt !== undefined && endedOf(byStatus) >= size;
    return {
      batchId,
      createdAt: Number(fields.createdAt),
      ...(fields.label === undefined ? {} : { label: fields.label }),
      ...(fields.key === undefined ? {} : { key: fields.key }),
      size,
      counts: byStatus,
      ...(over ? { finishedAt: Number(fields.finishedAt) } : {}),
    };
  }

  /** Job ids of a batch in submission order, `limit` of them from `offset` (all: -1). */
  async batchJobIds(batchId: string, offset = 0, limit = -1): Promise<string[]> {
    const stop = limit < 0 ? -1 : offset + limit - 1;
    if (limit === 0) return [];
    return this.redis.lrange(this.keys.batchJobs(batchId), offset, stop);
  }

  /** Batch ids, newest first, with paging. */
  async batchIds(offset: number, limit: number): Promise<string[]> {
    if (!(limit >= 1 && offset >= 0)) return [];
    return this.redis.zrevrange(this.keys.allBatches, String(offset), String(offset + limit - 1));
  }

  /** Forgets index entries of batches that expired. */
  async pruneBatches(ids: string[]): Promise<void> {
    if (ids.length > 0) await this.redis.zrem(this.keys.allBatches, ...ids);
  }

  /** Final resources of several jobs (undefined where a job is not final, or gone). */
  async finalResources(jobIds: string[]): Promise<Array<JobResource | undefined>> {
    if (jobIds.length === 0) return [];
    const texts = await this.redis
      .pipeline(jobIds.map((id) => ['hget', this.keys.job(id), 'resource']))
      .exec();
    return (texts ?? []).map(([, text]) =>
      typeof text === 'string' ? (JSON.parse(text) as JobResource) : undefined,
    );
  }

  /** Final resources of jobs with their places in their batches, for the store of record. */
  async archiveEntries(
    jobIds: string[],
  ): Promise<Array<{ resource: JobResource; position?: number } | undefined>> {
    if (jobIds.length === 0) return [];
    const rows = await this.redis
      .pipeline(jobIds.map((id) => ['hmget', this.keys.job(id), 'resource', 'meta']))
      .exec();
    return (rows ?? []).map(([, row]) => {
      const [resource, meta] = (row ?? []) as Array<string | null>;
      if (typeof resource !== 'string') return undefined;
      const position = typeof meta === 'string' ? (JSON.parse(meta) as JobMeta).batchPosition : undefined;
      return {
        resource: JSON.parse(resource) as JobResource,
        ...(position === undefined ? {} : { position }),
      };
    });
  }

  /** The slot counts workers announced (`FarmKeys.workerSlots`), by worker name. */
  async workerSlots(names: string[]): Promise<Map<string, number>> {
    if (names.length === 0) return new Map();
    const values = await this.redis.mget(...names.map((n) => this.keys.workerSlots(n)));
    return new Map(names.flatMap((n, i) => (values[i] == null ? [] : [[n, Number(values[i])]])));
  }

  /** The instance summaries of jobs (`JobMeta.summary`), by id, where they have one. */
  async summaries(jobIds: string[]): Promise<Map<string, string>> {
    const unique = [...new Set(jobIds)];
    if (unique.length === 0) return new Map();
    const metas = await this.redis.pipeline(unique.map((id) => ['hget', this.keys.job(id), 'meta'])).exec();
    const found = new Map<string, string>();
    (metas ?? []).forEach(([, text], i) => {
      const summary = typeof text === 'string' ? (JSON.parse(text) as JobMeta).summary : undefined;
      if (summary !== undefined) found.set(unique[i]!, summary);
    });
    return found;
  }

  /** Up to `count` ids of final jobs not yet in the store of record. */
  async unarchivedIds(count: number): Promise<string[]> {
    return this.redis.srandmember(this.keys.unarchived, count);
  }

  /**
   * Marks jobs as written to the store of record; their Redis copies then expire after `keepSec`
   * (reads fall back to the store), which bounds Redis' memory by the rate jobs end.
   */
  async archivedJobs(jobIds: string[], keepSec: number): Promise<void> {
    if (jobIds.length === 0) return;
    const tx = this.redis.multi().srem(this.keys.unarchived, ...jobIds);
    for (const id of jobIds) tx.expire(this.keys.job(id), keepSec, 'LT');
    await tx.exec();
  }

  /**
   * After a job of the batch ended at `endedAt` (epoch ms): the batch is kept as long as its jobs,
   * and its last end noted, the same end the store of record gives it.
   */
  private async batchJobEnded(batchId: string, endedAt: number): Promise<void> {
    const batch = await this.batch(batchId);
    if (batch === undefined) return;
    const tx = this.redis.multi();
    for (const key of [
      this.keys.batch(batchId),
      this.keys.batchJobs(batchId),
      this.keys.batchCounts(batchId),
    ]) {
      tx.expire(key, this.ttlSec);
    }
    if (batch.key !== undefined) tx.expire(this.keys.batchKey(batch.key), this.ttlSec);
    await tx.exec();
    await this.commands.satfarmBatchJobEnded(1, this.keys.batch(batchId), endedAt);
  }

  private remember(meta: JobMeta): void {
    this.metas.set(meta.id, meta);
    // Bounded: only metas of jobs in flight matter, and they are read again on a miss.
    if (this.metas.size > 10_000) this.metas.delete(this.metas.keys().next().value!);
  }
}

/** How many jobs are over, of `counts`. */
function endedOf(counts: Partial<Record<JobStatus, number>>): number {
  return Object.entries(counts)
    .filter(([status]) => isFinalStatus(status as JobStatus))
    .reduce((sum, [, n]) => sum + n, 0);
}

/** A counts hash as numbers, without the statuses no job is in. */
function countsOf(hash: Record<string, string>): Partial<Record<JobStatus, number>> {
  const counts: Partial<Record<JobStatus, number>> = {};
  for (const [status, n] of Object.entries(hash)) if (Number(n) > 0) counts[status as JobStatus] = Number(n);
  return counts;
}
