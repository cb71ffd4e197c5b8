import type { Redis } from 'ioredis';

import { type FarmKeys, isFinalStatus, type JobResource, type JobStatus } from '@satfarm/queue';
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
  createdAt: number;
  jobIds: string[];
}

// Compare-and-set of a job's state: the version must still be the one read. Moves the job between
// the per-status indexes, stores the final resource with an expiry, and sets cancel markers, all
// in one step, so a crash never leaves a decided cancel without its marker.
const UPDATE_JOB = `
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tostring(tonumber(ARGV[1]) + 1), 'state', ARGV[2], 'status', ARGV[3])
if KEYS[2] ~= KEYS[3] then
  redis.call('ZREM', KEYS[2], ARGV[5])
  redis.call('ZADD', KEYS[3], ARGV[4], ARGV[5])
end
if ARGV[6] ~= '' then
  redis.call('HSET', KEYS[1], 'resource', ARGV[6])
  redis.call('EXPIRE', KEYS[1], ARGV[7])
end
for i = 4, #KEYS do redis.call('SET', KEYS[i], ARGV[9], 'EX', ARGV[8]) end
return 1
`;

const MARKER_TTL_SEC = 24 * 3600;
const MAX_CAS_ATTEMPTS = 50;

type UpdateJobCommand = (numKeys: number, ...args: Array<string | number>) => Promise<number>;

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
  ) {
    if (!('satfarmUpdateJob' in redis)) redis.defineCommand('satfarmUpdateJob', { lua: UPDATE_JOB });
  }

  /** Stores new jobs (and their batch) in one transaction. */
  async create(jobs: NewJob[], batch?: StoredBatch): Promise<void> {
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
      if (resource !== undefined) tx.expire(key, this.ttlSec);
      tx.zadd(this.keys.jobsIn(state.status), meta.createdAt, meta.id);
      tx.zadd(this.keys.allJobs, meta.createdAt, meta.id);
      this.remember(meta);
    }
    if (batch !== undefined) {
      const key = this.keys.batch(batch.batchId);
      tx.hset(key, { createdAt: String(batch.createdAt), jobIds: JSON.stringify(batch.jobIds) });
      tx.expire(key, this.ttlSec);
    }
    await tx.exec();
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
      const written = await (
        this.redis as unknown as { satfarmUpdateJob: UpdateJobCommand }
      ).satfarmUpdateJob(
        3 + markerKeys.length,
        this.keys.job(jobId),
        this.keys.jobsIn(record.state.status),
        this.keys.jobsIn(decision.state.status),
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
      );
      if (written === 1) {
        if (isFinalStatus(decision.state.status)) this.metas.delete(jobId);
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
    for (const status of [
      'queued',
      'running',
      'optimal',
      'satisfiable',
      'unsatisfiable',
      'unknown',
      'failed',
      'cancelled',
    ]) {
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

  async batch(batchId: string): Promise<StoredBatch | undefined> {
    const [createdAt, jobIds] = await this.redis.hmget(this.keys.batch(batchId), 'createdAt', 'jobIds');
    if (createdAt == null || jobIds == null) return undefined;
    return { batchId, createdAt: Number(createdAt), jobIds: JSON.parse(jobIds) as string[] };
  }

  private remember(meta: JobMeta): void {
    this.metas.set(meta.id, meta);
    // Bounded: only metas of jobs in flight matter, and they are read again on a miss.
    if (this.metas.size > 10_000) this.metas.delete(this.metas.keys().next().value!);
  }
}
