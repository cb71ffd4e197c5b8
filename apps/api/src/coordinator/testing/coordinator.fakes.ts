import { onTestFinished } from 'vitest';

import { pigeonLadderGame } from '@satfarm/engine/testing';
import type { PortfolioRecord } from '@satfarm/engine';
import { type GameDefinition, gameById } from '@satfarm/games';
import {
  type BatchEventPayload,
  type CancelReason,
  type FinishedReport,
  type HorizonEventPayload,
  isFinalStatus,
  type JobEventPayload,
  type JobRequest,
  type JobResource,
  type JobStatus,
} from '@satfarm/queue';
import { parseSweepState } from '@satfarm/sweep';

import { FarmMetrics } from '../../metrics/farm-metrics.js';
import type { HorizonToQueue } from '../horizon.dispatch.js';
import type { ArchivedBatch, ArchivedBatchSummary, ArchivedJob, JobArchive } from '../job-archive.js';
import type { JobRecord } from '../job-record.js';
import type { BatchPart, JobWrite, NewJob, StoredBatch } from '../job.store.js';
import type { BoundSource, SearchedBound } from '../bound.pool.js';
import type { GameLookup } from '../job-instances.js';
import type { QuickPlanOutcome, QuickPlanSource } from '../quick-plan.pool.js';
import type { SearchOutcome } from '../search-thread.js';
import {
  type CoordinatorDispatch,
  type CoordinatorSettings,
  type CoordinatorStore,
  type ProgressSink,
  SweepCoordinator,
} from '../sweep-coordinator.js';

/** The epoch ms the fakes' clocks start at. */
export const NOW = 1_700_000_000_000;

interface StoredJob {
  record: JobRecord;
  instance: unknown;
  resource?: JobResource;
}

interface KeptBatch {
  batchId: string;
  createdAt: number;
  label?: string;
  key?: string;
  jobIds: string[];
  /** The last job end so far (epoch ms). */
  lastEnd?: number;
}

/**
 * The job store in memory, as `JobStore` keeps jobs in Redis: versioned records read back as JSON
 * (the sweep state parsed), a compare-and-set update that moves its batch's counts, the cancel
 * markers it was asked to set, batches and their idempotency keys, and with `archived` the set of
 * final jobs the store of record does not have yet.
 */
export class InMemoryJobStore implements CoordinatorStore {
  readonly jobs = new Map<string, StoredJob>();
  readonly markers = new Set<string>();
  readonly batches = new Map<string, KeptBatch>();
  readonly batchKeys = new Map<string, string>();
  /** Final jobs not yet in the store of record, in the order they ended. */
  readonly unarchived = new Set<string>();
  /** How long Redis keeps each job the store of record has (`archivedJobs`' `keepSec`). */
  readonly keptFor = new Map<string, number>();
  writes = 0;

  constructor(private readonly archived = false) {}

  create(jobs: NewJob[], part?: BatchPart): Promise<boolean> {
    if (part !== undefined) {
      const batch = this.batches.get(part.batchId);
      if ((batch?.jobIds.length ?? 0) !== part.offset) return Promise.resolve(false);
    }
    for (const { meta, instance, state, resource } of jobs) {
      this.jobs.set(meta.id, { record: roundTrip({ meta, state, version: 1 }), instance, resource });
      if (resource !== undefined && this.archived) this.unarchived.add(meta.id);
    }
    if (part !== undefined) {
      const batch = this.batches.get(part.batchId) ?? {
        batchId: part.batchId,
        createdAt: part.createdAt,
        ...(part.label === undefined ? {} : { label: part.label }),
        ...(part.key === undefined ? {} : { key: part.key }),
        jobIds: [],
      };
      batch.jobIds.push(...jobs.map((j) => j.meta.id));
      for (const { resource, state } of jobs) {
        if (resource !== undefined) batch.lastEnd = Math.max(batch.lastEnd ?? 0, state.finishedAt ?? 0);
      }
      this.batches.set(part.batchId, batch);
    }
    return Promise.resolve(true);
  }

  claimBatchKey(key: string, batchId: string): Promise<string | undefined> {
    const holder = this.batchKeys.get(key);
    if (holder === undefined) this.batchKeys.set(key, batchId);
    return Promise.resolve(holder);
  }

  releaseBatchKey(key: string, batchId: string): Promise<void> {
    if (this.batchKeys.get(key) === batchId) this.batchKeys.delete(key);
    return Promise.resolve();
  }

  load(jobId: string): Promise<JobRecord | undefined> {
    const stored = this.jobs.get(jobId);
    return Promise.resolve(stored === undefined ? undefined : roundTrip(stored.record));
  }

  instance(jobId: string): Promise<unknown> {
    return Promise.resolve(this.jobs.get(jobId)?.instance);
  }

  finalResource(jobId: string): Promise<JobResource | undefined> {
    return Promise.resolve(this.jobs.get(jobId)?.resource);
  }

  finalResources(jobIds: string[]): Promise<Array<JobResource | undefined>> {
    return Promise.resolve(jobIds.map((id) => this.jobs.get(id)?.resource));
  }

  async update<D extends JobWrite>(
    jobId: string,
    decide: (record: JobRecord) => D | undefined | Promise<D | undefined>,
  ): Promise<{ record: JobRecord; decision: D } | undefined> {
    const record = await this.load(jobId);
    if (record === undefined) return undefined;
    const decision = await decide(record);
    if (decision === undefined) return undefined;
    const stored = this.jobs.get(jobId)!;
    if (stored.record.version !== record.version) throw new Error('concurrent update in a serial test');
    stored.record = roundTrip({ meta: record.meta, state: decision.state, version: record.version + 1 });
    if (decision.resource !== undefined) {
      stored.resource = decision.resource;
      if (this.archived) this.unarchived.add(jobId);
    }
    for (const id of decision.markers) this.markers.add(id);
    const batch = record.meta.batchId === undefined ? undefined : this.batches.get(record.meta.batchId);
    if (batch !== undefined && isFinalStatus(decision.state.status)) {
      batch.lastEnd = Math.max(batch.lastEnd ?? 0, decision.state.finishedAt ?? 0);
    }
    this.writes++;
    return { record, decision };
  }

  statuses(jobIds: string[]): Promise<Array<JobStatus | undefined>> {
    return Promise.resolve(jobIds.map((id) => this.jobs.get(id)?.record.state.status));
  }

  ids(status: JobStatus | undefined, offset: number, limit: number): Promise<string[]> {
    const ids = [...this.jobs.values()]
      .filter((j) => status === undefined || j.record.state.status === status)
      .sort((a, b) => b.record.meta.createdAt - a.record.meta.createdAt)
      .map((j) => j.record.meta.id);
    return Promise.resolve(ids.slice(offset, offset + limit));
  }

  unfinishedIds(): Promise<string[]> {
    const open = [...this.jobs.values()].filter((j) => !isFinalStatus(j.record.state.status));
    return Promise.resolve(open.map((j) => j.record.meta.id));
  }

  prune(): Promise<void> {
    return Promise.resolve();
  }

  /** A batch with its counts by status, read from its jobs as Redis' counts hash tracks them. */
  batch(batchId: string): Promise<StoredBatch | undefined> {
    const batch = this.batches.get(batchId);
    if (batch === undefined) return Promise.resolve(undefined);
    const counts: Partial<Record<JobStatus, number>> = {};
    let ended = 0;
    for (const id of batch.jobIds) {
      const status = this.jobs.get(id)?.record.state.status;
      if (status === undefined) continue;
      counts[status] = (counts[status] ?? 0) + 1;
      if (isFinalStatus(status)) ended++;
    }
    const over = batch.lastEnd !== undefined && ended >= batch.jobIds.length;
    return Promise.resolve({
      batchId,
      createdAt: batch.createdAt,
      ...(batch.label === undefined ? {} : { label: batch.label }),
      ...(batch.key === undefined ? {} : { key: batch.key }),
      size: batch.jobIds.length,
      counts,
      ...(over ? { finishedAt: batch.lastEnd } : {}),
    });
  }

  batchJobIds(batchId: string, offset = 0, limit = -1): Promise<string[]> {
    const ids = this.batches.get(batchId)?.jobIds ?? [];
    return Promise.resolve(limit < 0 ? ids.slice(offset) : ids.slice(offset, offset + limit));
  }

  batchIds(offset: number, limit: number): Promise<string[]> {
    const ids = [...this.batches.values()].sort((a, b) => b.createdAt - a.createdAt).map((b) => b.batchId);
    return Promise.resolve(ids.slice(offset, offset + limit));
  }

  pruneBatches(): Promise<void> {
    return Promise.resolve();
  }

  archiveEntries(jobIds: string[]): Promise<Array<{ resource: JobResource; position?: number } | undefined>> {
    return Promise.resolve(
      jobIds.map((id) => {
        const stored = this.jobs.get(id);
        if (stored?.resource === undefined) return undefined;
        const position = stored.record.meta.batchPosition;
        return { resource: stored.resource, ...(position === undefined ? {} : { position }) };
      }),
    );
  }

  unarchivedIds(count: number): Promise<string[]> {
    return Promise.resolve([...this.unarchived].slice(0, count));
  }

  archivedJobs(jobIds: string[], keepSec: number): Promise<void> {
    for (const id of jobIds) {
      this.unarchived.delete(id);
      if (this.jobs.has(id)) this.keptFor.set(id, keepSec);
    }
    return Promise.resolve();
  }

  /** Lets a job expire, as Redis does after its time to live. */
  expire(jobId: string): void {
    this.jobs.delete(jobId);
  }

  /** Lets a batch and its jobs expire. */
  expireBatch(batchId: string): void {
    for (const id of this.batches.get(batchId)?.jobIds ?? []) this.jobs.delete(id);
    this.batches.delete(batchId);
  }

  /** A job's stored status. */
  statusOf(jobId: string): JobStatus | undefined {
    return this.jobs.get(jobId)?.record.state.status;
  }
}

/** A record as it comes back from Redis: JSON, with the sweep state parsed. */
function roundTrip(record: JobRecord): JobRecord {
  const copy = JSON.parse(JSON.stringify(record)) as JobRecord;
  return { ...copy, state: { ...copy.state, sweep: parseSweepState(copy.state.sweep) } };
}

/**
 * The store of record in memory: upserts by id, a batch's size that never shrinks, its counts and
 * end from its archived jobs. `failing` makes every write throw, as a database away does.
 */
export class InMemoryJobArchive implements JobArchive {
  readonly jobRows = new Map<string, ArchivedJob>();
  readonly batchRows = new Map<string, ArchivedBatch>();
  /** Every `saveJobs` call that succeeded, as the ids it wrote. */
  readonly saves: string[][] = [];
  failing = false;

  migrate(): Promise<void> {
    return Promise.resolve();
  }

  saveBatch(batch: ArchivedBatch): Promise<void> {
    if (this.failing) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    const before = this.batchRows.get(batch.batchId);
    this.batchRows.set(batch.batchId, { ...batch, size: Math.max(batch.size, before?.size ?? 0) });
    return Promise.resolve();
  }

  saveJobs(jobs: ArchivedJob[]): Promise<void> {
    if (this.failing) return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:5432'));
    for (const job of jobs) this.jobRows.set(job.resource.id, structuredClone(job));
    this.saves.push(jobs.map((j) => j.resource.id));
    return Promise.resolve();
  }

  job(jobId: string): Promise<JobResource | undefined> {
    return Promise.resolve(this.jobRows.get(jobId)?.resource);
  }

  jobs(jobIds: string[]): Promise<Map<string, JobResource>> {
    const found = new Map<string, JobResource>();
    for (const id of jobIds) {
      const row = this.jobRows.get(id);
      if (row !== undefined) found.set(id, row.resource);
    }
    return Promise.resolve(found);
  }

  batch(batchId: string): Promise<ArchivedBatchSummary | undefined> {
    const row = this.batchRows.get(batchId);
    return Promise.resolve(row === undefined ? undefined : this.summaryOf(row));
  }

  batchByKey(key: string): Promise<ArchivedBatch | undefined> {
    return Promise.resolve([...this.batchRows.values()].find((b) => b.key === key));
  }

  batches(offset: number, limit: number): Promise<ArchivedBatchSummary[]> {
    const rows = [...this.batchRows.values()].sort((a, b) => b.createdAt - a.createdAt);
    return Promise.resolve(rows.slice(offset, offset + limit).map((row) => this.summaryOf(row)));
  }

  batchJobs(
    batchId: string,
    page: { status?: JobStatus; offset: number; limit: number },
  ): Promise<JobResource[]> {
    const jobs = this.rowsOf(batchId).filter(
      (r) => page.status === undefined || r.resource.status === page.status,
    );
    return Promise.resolve(jobs.slice(page.offset, page.offset + page.limit).map((r) => r.resource));
  }

  async *batchResults(batchId: string): AsyncIterable<JobResource> {
    for (const row of this.rowsOf(batchId)) yield await Promise.resolve(row.resource);
  }

  purgeFinishedBefore(): Promise<number> {
    return Promise.resolve(0);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private rowsOf(batchId: string): ArchivedJob[] {
    return [...this.jobRows.values()]
      .filter((r) => r.resource.batchId === batchId)
      .sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  }

  private summaryOf(row: ArchivedBatch): ArchivedBatchSummary {
    const jobs = this.rowsOf(row.batchId);
    const counts: Partial<Record<JobStatus, number>> = {};
    for (const { resource } of jobs) counts[resource.status] = (counts[resource.status] ?? 0) + 1;
    const ends = jobs.map((j) => Date.parse(j.resource.finishedAt ?? ''));
    return {
      ...row,
      counts,
      ...(jobs.length >= row.size && jobs.length > 0 ? { finishedAt: Math.max(...ends) } : {}),
    };
  }
}

/** The horizons handed to the workers and the cancels sent to them, in order. */
export class RecordingDispatch implements CoordinatorDispatch {
  readonly queued: HorizonToQueue[] = [];
  readonly stopped: Array<{ ids: string[]; reason: CancelReason; decidedAt: number }> = [];
  readonly removed: string[][] = [];

  enqueue(horizons: HorizonToQueue[]): Promise<void> {
    this.queued.push(...horizons);
    return Promise.resolve();
  }

  stopRunning(ids: string[], reason: CancelReason, decidedAt: number): Promise<void> {
    if (ids.length > 0) this.stopped.push({ ids, reason, decidedAt });
    return Promise.resolve();
  }

  removeWaiting(ids: string[]): Promise<void> {
    this.removed.push(ids);
    return Promise.resolve();
  }

  /** The horizons queued so far, as `t` values. */
  get queuedTs(): number[] {
    return this.queued.map((h) => h.payload.t);
  }

  /** The horizons of `jobId` queued so far, as `t` values. */
  queuedOf(jobId: string): number[] {
    return this.queued.filter((h) => h.payload.jobId === jobId).map((h) => h.payload.t);
  }

  /** Every id told to stop so far. */
  get stoppedIds(): string[] {
    return this.stopped.flatMap((s) => s.ids);
  }
}

export class RecordingProgress implements ProgressSink {
  readonly horizons: HorizonEventPayload[] = [];
  readonly jobs: JobEventPayload[] = [];
  readonly batches: BatchEventPayload[] = [];

  horizon(event: HorizonEventPayload): void {
    this.horizons.push(event);
  }

  job(event: JobEventPayload): void {
    this.jobs.push(event);
  }

  batch(event: BatchEventPayload): void {
    this.batches.push(event);
  }

  solverProgress(): void {}
}

/**
 * A quick-plan search per `find`, each answered by the test (`answer`, `fail`) when it chooses, so
 * that a test decides what lands before and after the quick plan.
 */
export class ControlledQuickPlans implements QuickPlanSource {
  readonly searches: Array<{
    game: string;
    instance: unknown;
    max: number;
    deadline?: number;
    searched?: SearchedBound;
    answer: (outcome: QuickPlanOutcome) => void;
    fail: (err: Error) => void;
  }> = [];

  find(
    game: string,
    instance: unknown,
    max: number,
    deadline?: number,
    searched?: SearchedBound,
  ): Promise<QuickPlanOutcome> {
    return new Promise((answer, fail) => {
      this.searches.push({
        game,
        instance,
        max,
        ...(deadline === undefined ? {} : { deadline }),
        ...(searched === undefined ? {} : { searched }),
        answer,
        fail,
      });
    });
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** A bound search per `find`, each answered by the test when it chooses (`answer`). */
export class ControlledBounds implements BoundSource {
  readonly searches: Array<{ game: string; instance: unknown; answer: (outcome: SearchOutcome) => void }> =
    [];

  find(game: string, instance: unknown): Promise<SearchOutcome> {
    return new Promise((answer) => this.searches.push({ game, instance, answer }));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }
}

/** The pigeon ladder with a quick plan: the coordinator only asks its `QuickPlanSource` for it. */
export const quickPigeonsGame: GameDefinition<unknown, unknown> = {
  ...(pigeonLadderGame as GameDefinition<unknown, unknown>),
  quickPlan: () => {
    throw new Error('the coordinator looks for quick plans through its QuickPlanSource');
  },
};

export const games = (name: string, field?: string): GameDefinition<unknown, unknown> => {
  if (name === 'pigeons') return pigeonLadderGame;
  if (name === 'quick-pigeons') return quickPigeonsGame;
  return gameById(name, field);
};

export const SETTINGS = { maxHorizon: 50, defaultParallelism: 2, levelFiles: [] };

export interface FarmOptions {
  archive?: InMemoryJobArchive;
  quickPlans?: QuickPlanSource;
  bounds?: BoundSource;
  /** The games it knows (default: `games`). */
  games?: GameLookup;
  /** The coordinator's clock (default: one the test moves with `advance`, from `NOW`). */
  clock?: () => number;
  store?: InMemoryJobStore;
  /** The portfolio's record of races (default: the coordinator's own, in memory). */
  portfolioRecord?: PortfolioRecord;
  /** Farm settings over `SETTINGS`. */
  settings?: Partial<CoordinatorSettings>;
}

/** A coordinator on in-memory fakes, closed when the test ends. */
export function farm(options: FarmOptions = {}) {
  const store = options.store ?? new InMemoryJobStore(options.archive !== undefined);
  const dispatch = new RecordingDispatch();
  const progress = new RecordingProgress();
  let now = NOW;
  const metrics = new FarmMetrics();
  const coordinator = new SweepCoordinator({
    store,
    dispatch,
    progress,
    metrics,
    games: options.games ?? games,
    settings: { ...SETTINGS, ...options.settings },
    ...(options.portfolioRecord === undefined ? {} : { portfolioRecord: options.portfolioRecord }),
    ...(options.archive === undefined ? {} : { archive: options.archive }),
    ...(options.quickPlans === undefined ? {} : { quickPlans: options.quickPlans }),
    ...(options.bounds === undefined ? {} : { bounds: options.bounds }),
    clock: options.clock ?? (() => now),
  });
  onTestFinished(() => coordinator.close());
  const advance = (ms: number): void => {
    now += ms;
  };
  return { coordinator, store, dispatch, progress, advance, metrics };
}

/** Five pigeons, whose game claims a plan of at least 4 holes: the sweep starts at horizon 3. */
export function pigeons(options: JobRequest['options'] = {}, game = 'pigeons'): JobRequest {
  return { game, instance: { pigeons: 5, lowerBound: 4 }, options };
}

/** A worker's answer for horizon `t` of a pigeons job (a plan of `t` holes on SAT). */
export function report(
  jobId: string,
  t: number,
  result: FinishedReport['result'],
  more: Partial<FinishedReport> = {},
): FinishedReport {
  return {
    kind: 'finished',
    jobId,
    game: 'pigeons',
    t,
    worker: 'host-a:1',
    result,
    startedAt: NOW,
    ms: 40,
    stats: { vars: 10 * t, clauses: 20 * t, solver: 'kissat-4.0.0', solverMs: 30, encodeMs: 1 },
    ...(result === 'sat'
      ? { plan: { holes: Array.from({ length: 5 }, (_, i) => i % t) }, planLength: t }
      : {}),
    ...more,
  };
}

/** Lets every promise already settled run its callbacks (the fakes answer without timers). */
export function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The error `run` rejects with. */
export async function rejection(run: Promise<unknown>): Promise<Error> {
  try {
    await run;
  } catch (err) {
    return err as Error;
  }
  throw new Error('resolved; a rejection was expected');
}
