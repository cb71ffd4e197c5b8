import { randomUUID } from 'node:crypto';

import type { PortfolioRecord } from '@satfarm/engine';
import type { GameDefinition } from '@satfarm/games';
import {
  type BatchCreated,
  type BatchEventPayload,
  type BatchResource,
  type BatchSummary,
  type CancelReason,
  type HorizonEventPayload,
  type HorizonReport,
  horizonJobId,
  isFinalStatus,
  type JobEventPayload,
  type JobRequest,
  type JobResource,
  type JobStatus,
  parseHorizonJobId,
} from '@satfarm/queue';
import { horizonRecord, type SweepState } from '@satfarm/sweep';

import type { FarmMetrics } from '../metrics/farm-metrics.js';
import type { BoundSource, SearchedBound } from './bound.pool.js';
import type { QuickPlanSource } from './quick-plan.pool.js';
import { horizonEntry } from './horizon-entry.js';
import type { HorizonDispatch, HorizonToQueue } from './horizon.dispatch.js';
import type { JobMeta, JobState } from './job-record.js';
import type { Decide } from './job-decision.js';
import { type GameLookup, JobInstances, safeRender } from './job-instances.js';
import { buildJobResource } from './job-resource.builder.js';
import {
  type CoordinatorSettings,
  initialSweep,
  type PreparationContext,
  type JobPlace,
  type Prepared,
  prepareJob,
} from './job.preparation.js';
import { JobQueries, type QueryStore, RESULTS_PAGE, summaryOfBatch } from './job.queries.js';
import type { JobArchive } from './job-archive.js';
import type { BatchPart, JobStore, JobWrite, NewJob } from './job.store.js';
import {
  deadlinePassed,
  horizonFailed,
  horizonFinished,
  horizonStarted,
  jobCancelled,
  jobFailed,
  type JobTransition,
  planKnown,
  reconcile,
} from './job-transitions.js';
import { KeyedSerializer } from './keyed-serializer.js';
import { PortfolioOrchestrator, siblingDecision, siblingIds } from './portfolio.orchestrator.js';
import { openCubes, splitOf, wholeRunEnded } from './split.js';
import { SplitOrchestrator, unlessWholeRunEnded } from './split.orchestrator.js';

export type { GameLookup } from './job-instances.js';
export type { CoordinatorSettings } from './job.preparation.js';

/** Where progress events go (the websocket gateway). */
export interface ProgressSink {
  horizon(event: HorizonEventPayload, batchId?: string): void;
  job(event: JobEventPayload, batchId?: string): void;
  /** A batch's counts changed (at most a few a second per batch, and once when it is done). */
  batch(event: BatchEventPayload): void;
  /**
   * A running horizon's search so far, for this process's clients only: every coordinator reads
   * the same progress from the queue's events, so each relays it to its own clients.
   */
  solverProgress(event: HorizonEventPayload): void;
}

/** What the coordinator uses of the job store (`JobStore`, Redis): the read side's and its own. */
export type CoordinatorStore = QueryStore &
  Pick<
    JobStore,
    | 'create'
    | 'claimBatchKey'
    | 'releaseBatchKey'
    | 'instance'
    | 'update'
    | 'unfinishedIds'
    | 'archiveEntries'
    | 'unarchivedIds'
    | 'archivedJobs'
  >;

/** What the coordinator uses of the horizon dispatch (`HorizonDispatch`, BullMQ). */
export type CoordinatorDispatch = Pick<HorizonDispatch, 'enqueue' | 'stopRunning' | 'removeWaiting'>;

export interface CoordinatorDeps {
  store: CoordinatorStore;
  dispatch: CoordinatorDispatch;
  progress: ProgressSink;
  metrics: FarmMetrics;
  games: GameLookup;
  settings: CoordinatorSettings;
  /** Where new jobs' quick plans are found (none: jobs start without one). */
  quickPlans?: QuickPlanSource;
  /**
   * Where new jobs' bounds are searched, for games whose bound takes a search
   * (`GameDefinition.searchedBound`; none: on the event loop, as the job is checked).
   */
  bounds?: BoundSource;
  /** The store of record of finished jobs and batches (none: Redis alone, for its time to live). */
  archive?: JobArchive;
  /** The portfolio's record of races, shared by the farm (none: this process's memory). */
  portfolioRecord?: PortfolioRecord;
  clock?: () => number;
}

/**
 * The farm's coordinator: runs the horizon sweep of every job (libs/sweep's state machine, with
 * the state in Redis), queues horizons for the workers, applies their reports, cancels dominated
 * horizons everywhere, and finishes jobs. Every decision is a compare-and-set on the stored state,
 * so several coordinators (one per API replica) can share the farm, and one that restarts resumes
 * from Redis (`resume`). Reports arrive through a durable queue, so none is lost while no
 * coordinator runs.
 */
export class SweepCoordinator {
  private readonly serial = new KeyedSerializer();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly batchEvents = new Map<string, NodeJS.Timeout>();
  private readonly instances: JobInstances;
  private readonly clock: () => number;
  private readonly portfolio: PortfolioOrchestrator;
  private readonly splits: SplitOrchestrator;
  private readonly queries: JobQueries;
  private readonly preparation: PreparationContext;

  constructor(private readonly deps: CoordinatorDeps) {
    this.clock = deps.clock ?? Date.now;
    this.instances = new JobInstances(deps.store, deps.games, deps.settings.levelFiles);
    this.preparation = {
      games: deps.games,
      settings: deps.settings,
      instances: this.instances,
      quickPlans: deps.quickPlans !== undefined,
    };
    this.queries = new JobQueries(deps.store, deps.archive, this.instances, this.clock);
    this.portfolio = new PortfolioOrchestrator(deps.portfolioRecord, this.clock);
    this.splits = new SplitOrchestrator({
      store: deps.store,
      games: deps.games,
      instances: this.instances,
      metrics: deps.metrics,
      apply: (jobId, reason, decide, decidedAt) => this.apply(jobId, reason, decide, decidedAt),
      clock: this.clock,
    });
  }

  /**
   * Validates and starts jobs (all or none: a bad one is a `PayloadError` naming its field, and
   * nothing is stored).
   */
  async submit(requests: JobRequest[], owner?: string): Promise<{ jobIds: string[] }> {
    const prepared = await this.prepareAll(requests, () => ({
      root: '',
      now: this.clock(),
      place: { owner },
    }));
    await this.start(prepared);
    return { jobIds: prepared.map((p) => p.meta.id) };
  }

  /**
   * Creates a batch of jobs (all or none, fields named `jobs[i]....`). A `key` used before
   * answers the batch it made, with nothing queued (docs/batches.md).
   */
  async createBatch(
    requests: JobRequest[],
    how: { key?: string; label?: string; owner?: string } = {},
  ): Promise<BatchCreated> {
    const now = this.clock();
    const batchId = randomUUID();
    const prepared = await this.prepareAll(requests, (i) => ({
      root: `jobs[${i}].`,
      now,
      place: { owner: how.owner, batchId, position: i },
    }));
    if (how.key !== undefined) {
      const claimed = await this.deps.store.claimBatchKey(how.key, batchId);
      const existing = claimed ?? (await this.deps.archive?.batchByKey(how.key))?.batchId;
      if (existing !== undefined) {
        // A key Redis lost but the store of record has: the claim just made names no batch.
        if (claimed === undefined) await this.deps.store.releaseBatchKey(how.key, batchId);
        if ((await this.batchSummary(existing)) !== undefined) {
          return this.existingPart(existing, 0, requests.length);
        }
        // The key outlived its batch (both expire, at slightly different times): it is free again.
        await this.deps.store.releaseBatchKey(how.key, existing);
        if ((await this.deps.store.claimBatchKey(how.key, batchId)) !== undefined) {
          throw new BatchOffsetConflict(0, 'another batch is being created with this key', 'key');
        }
      }
    }
    const part = { batchId, createdAt: now, offset: 0, label: how.label, key: how.key };
    try {
      await this.deps.archive?.saveBatch({ ...part, size: requests.length });
      await this.start(prepared, part);
    } catch (err) {
      if (how.key !== undefined) await this.deps.store.releaseBatchKey(how.key, batchId);
      throw err;
    }
    return { batchId, jobIds: prepared.map((p) => p.meta.id), size: requests.length, existing: false };
  }

  /**
   * Grows a batch by `requests` at `offset` (docs/batches.md). Undefined for an unknown batch; a
   * `BatchOffsetConflict` when the batch does not end at `offset` and the part is not already in it.
   */
  async appendToBatch(
    batchId: string,
    offset: number,
    requests: JobRequest[],
    owner?: string,
  ): Promise<BatchCreated | undefined> {
    const batch = await this.deps.store.batch(batchId);
    if (batch === undefined) {
      const archived = await this.deps.archive?.batch(batchId);
      if (archived === undefined) return undefined;
      throw new BatchOffsetConflict(archived.size, 'the batch is over and takes no more jobs');
    }
    const now = this.clock();
    const prepared = await this.prepareAll(requests, (i) => ({
      root: `jobs[${i}].`,
      now,
      place: { owner, batchId, position: offset + i },
    }));
    const archived = {
      batchId,
      createdAt: batch.createdAt,
      ...(batch.label === undefined ? {} : { label: batch.label }),
      ...(batch.key === undefined ? {} : { key: batch.key }),
    };
    // The store of record learns a size only once Redis holds it (a size never shrinks there), and
    // again on a repeated part, so a write lost to a failed request is made up by its retry.
    const repeat = async (): Promise<BatchCreated> => {
      const answer = await this.existingPart(batchId, offset, requests.length);
      await this.deps.archive?.saveBatch({ ...archived, size: answer.size });
      return answer;
    };
    if (offset !== batch.size) return repeat();
    if (!(await this.start(prepared, { batchId, createdAt: batch.createdAt, offset }))) return repeat();
    await this.deps.archive?.saveBatch({ ...archived, size: offset + requests.length });
    return {
      batchId,
      jobIds: prepared.map((p) => p.meta.id),
      size: offset + requests.length,
      existing: false,
    };
  }

  /**
   * Prepares new jobs in order, each with its bound searched first off the event loop where its
   * game's bound takes a search (`BoundSource`), so that a batch of thousands of them leaves the
   * API answering. A search that fails leaves the bound to `prepareJob`, on the event loop.
   */
  private async prepareAll(
    requests: JobRequest[],
    job: (i: number) => { root: string; now: number; place: JobPlace },
  ): Promise<Prepared[]> {
    const searched = await Promise.all(requests.map((request) => this.searchBound(request)));
    return requests.map((request, i) => {
      const { root, now, place } = job(i);
      return prepareJob(this.preparation, request, root, now, place, searched[i]);
    });
  }

  private async searchBound(request: JobRequest): Promise<SearchedBound | undefined> {
    const bounds = this.deps.bounds;
    if (bounds === undefined) return undefined;
    let game: GameDefinition<unknown, unknown>;
    try {
      game = this.deps.games(request.game);
    } catch {
      return undefined; // prepareJob names the field
    }
    if (!game.planning || game.searchedBound === undefined) return undefined;
    const outcome = await bounds.find(request.game, request.instance);
    return 'error' in outcome || outcome.value === undefined ? undefined : { found: outcome.value };
  }

  /** The answer for a part already in a batch, or a conflict when the batch has no such part. */
  private async existingPart(batchId: string, offset: number, count: number): Promise<BatchCreated> {
    const batch = await this.batchSummary(batchId);
    if (batch === undefined) throw new BatchOffsetConflict(0, 'the batch is gone');
    if (offset + count > batch.size && offset !== 0) {
      throw new BatchOffsetConflict(batch.size, `must be ${batch.size}, the batch's size`);
    }
    let jobIds = await this.deps.store.batchJobIds(batchId, offset, count);
    if (jobIds.length === 0 && this.deps.archive !== undefined) {
      const archived = await this.deps.archive.batchJobs(batchId, { offset, limit: count });
      jobIds = archived.map((job) => job.id);
    }
    return { batchId, jobIds, size: batch.size, existing: true };
  }

  /** Stores prepared jobs (as a part of a batch, if given) and queues their first horizons. */
  private async start(prepared: Prepared[], part?: BatchPart): Promise<boolean> {
    const now = this.clock();
    const created: Array<{ job: NewJob; transition: JobTransition; prepared: Prepared }> = [];
    for (const p of prepared) {
      const state: JobState = { status: 'queued', sweep: initialSweep(p.meta), sizes: {} };
      const transition =
        (p.given === undefined ? undefined : planKnown(p.meta, state, p.given, now)) ??
        reconcile(p.meta, state, now);
      const resource = transition.finished
        ? buildJobResource(p.meta, transition.state, now, safeRender(p.game, p.parsed, undefined))
        : undefined;
      created.push({
        job: { meta: p.meta, instance: p.instance, state: transition.state, resource },
        transition,
        prepared: p,
      });
    }
    if (
      !(await this.deps.store.create(
        created.map((c) => c.job),
        part,
      ))
    )
      return false;
    const toQueue: HorizonToQueue[] = [];
    for (const { transition, prepared: p } of created) {
      this.instances.remember(p.meta.id, p.instance, p.parsed);
      toQueue.push(...(await this.horizons(p.meta, p.instance, transition.enqueue, transition.state.sweep)));
      for (const event of transition.horizonEvents) this.deps.progress.horizon(event, p.meta.batchId);
      if (transition.finished) this.deps.metrics.jobFinished(p.meta.game, transition.state.status);
      else this.armDeadline(p.meta);
    }
    await this.deps.dispatch.enqueue(toQueue);
    for (const { transition, prepared: p } of created) {
      if (p.quickPlan && !transition.finished) void this.applyQuickPlan(p);
    }
    if (part !== undefined) this.batchChanged(part.batchId);
    return true;
  }

  /**
   * Looks for a new job's quick plan off the event loop (`QuickPlanSource`), and records it like an
   * answer when it comes: the horizons of its length and above stop. A quick plan only saves time,
   * so a job whose search fails, or whose store update fails, goes on without one.
   */
  private async applyQuickPlan(p: Prepared): Promise<void> {
    try {
      const outcome = await this.deps.quickPlans?.find(
        p.meta.game,
        p.instance,
        p.meta.options.maxHorizon,
        p.meta.deadline,
        p.searched,
      );
      if (outcome === undefined) return;
      const known = 'known' in outcome ? outcome.known : undefined;
      this.deps.metrics.quickPlanEnded(
        p.meta.game,
        'error' in outcome ? 'failed' : known === undefined ? 'none' : 'found',
      );
      if (known === undefined) return;
      await this.apply(p.meta.id, 'dominated', (r, now) => planKnown(r.meta, r.state, known, now));
    } catch {
      // The job goes on as it would without a quick plan.
    }
  }

  /** Applies one worker report. */
  async handleReport(report: HorizonReport): Promise<void> {
    if (report.kind === 'finished') this.deps.metrics.proofsChecked(report.stats.proof, report.uniqueProof);
    if (report.cube !== undefined) return this.splits.cubeReport(report, report.cube);
    const sibling = siblingDecision(report);
    if (sibling !== undefined) {
      await this.apply(report.jobId, 'dominated', sibling);
    } else if (report.kind === 'started') {
      await this.apply(report.jobId, 'dominated', (r, now) =>
        horizonStarted(r.meta, r.state, report.t, Math.min(report.at, now), report.run, report.config),
      );
    } else if (report.kind === 'failed') {
      this.deps.metrics.horizonEnded(report.game, 'failed', 0);
      const error = `horizon ${report.t}: ${report.error}`;
      await this.apply(
        report.jobId,
        'job-finished',
        unlessWholeRunEnded(report, (r, now) =>
          horizonFailed(r.meta, r.state, report.t, report.run, error, now),
        ),
      );
    } else {
      this.deps.metrics.horizonEnded(
        report.game,
        report.result,
        report.stats.solverMs,
        report.cancelLatencyMs,
        report.stats,
      );
      // The horizons this answer dominates are useless from the moment the worker had it.
      const answeredAt = report.startedAt + report.ms;
      await this.apply(
        report.jobId,
        'dominated',
        unlessWholeRunEnded(report, (r, now) => horizonFinished(r.meta, r.state, report, now)),
        answeredAt,
      );
    }
  }

  /**
   * A horizon job failed without a report from its worker (BullMQ gave up on it after its workers
   * died holding it): the job fails, since nothing will answer that horizon. A lost cube is a cube
   * without an answer; a split horizon's whole run lost leaves its cubes to decide.
   */
  async horizonLost(horizonJobId: string, reason: string): Promise<void> {
    const horizon = parseHorizonJobId(horizonJobId);
    // A sibling lost costs the race nothing: the horizon's own run goes on.
    if (horizon === undefined || horizon.sibling !== undefined) return;
    const { cube } = horizon;
    if (cube !== undefined) {
      return this.splits.cubeLost(horizon.jobId, { t: horizon.t, run: horizon.run, index: cube }, reason);
    }
    await this.apply(horizon.jobId, 'job-finished', (r, now) => {
      if (splitOf(r.state, horizon.t, horizon.run) !== undefined)
        return wholeRunEnded(r.meta, r.state, horizon.t, horizon.run, now);
      const record = horizonRecord(r.state.sweep, horizon.t);
      if (record?.state !== 'queued' && record?.state !== 'running') return undefined;
      // An earlier run of a horizon that gave way is not the one in flight.
      if ((record.run ?? 1) !== horizon.run) return undefined;
      return jobFailed(r.meta, r.state, `horizon ${horizon.t} was lost: ${reason}`, now);
    });
  }

  /** Cancels a job: its horizons stop everywhere. Returns the job's resource, or undefined. */
  async cancel(jobId: string): Promise<JobResource | undefined> {
    await this.apply(jobId, 'job-cancelled', (r, now) => jobCancelled(r.meta, r.state, now));
    return this.resource(jobId);
  }

  /** A job's resource (the final one once it is over); with `render`, a live one's drawing too. */
  resource(jobId: string, render = false): Promise<JobResource | undefined> {
    return this.queries.resource(jobId, render);
  }

  /** Jobs in `status` (or all), newest first. */
  list(status: JobStatus | undefined, offset: number, limit: number): Promise<JobResource[]> {
    return this.queries.list(status, offset, limit);
  }

  /** A batch with its job ids in order, or undefined (docs/batches.md). */
  batch(batchId: string): Promise<BatchResource | undefined> {
    return this.queries.batch(batchId);
  }

  /** A batch's summary: from Redis while it has it, else from the store of record. */
  batchSummary(batchId: string): Promise<BatchSummary | undefined> {
    return this.queries.batchSummary(batchId);
  }

  /** Batches, newest first. */
  batches(offset: number, limit: number): Promise<BatchSummary[]> {
    return this.queries.batches(offset, limit);
  }

  /** A page of a batch's jobs in submission order, optionally in one status; undefined for none. */
  batchJobs(
    batchId: string,
    status: JobStatus | undefined,
    offset: number,
    limit: number,
  ): Promise<JobResource[] | undefined> {
    return this.queries.batchJobs(batchId, status, offset, limit);
  }

  /** Every job of a batch in submission order, streamed a page at a time; undefined for none. */
  batchResults(batchId: string): Promise<AsyncIterable<JobResource> | undefined> {
    return this.queries.batchResults(batchId);
  }

  /** Cancels every job of a batch that is not over; answers the batch, or undefined. */
  async cancelBatch(batchId: string): Promise<BatchSummary | undefined> {
    const stored = await this.deps.store.batch(batchId);
    if (stored === undefined) return this.batchSummary(batchId);
    for (let offset = 0; offset < stored.size; offset += RESULTS_PAGE) {
      const ids = await this.deps.store.batchJobIds(batchId, offset, RESULTS_PAGE);
      const statuses = await this.deps.store.statuses(ids);
      const open = ids.filter((_, i) => {
        const status = statuses[i];
        return status !== undefined && !isFinalStatus(status);
      });
      for (let i = 0; i < open.length; i += CANCEL_CONCURRENCY) {
        await Promise.all(
          open
            .slice(i, i + CANCEL_CONCURRENCY)
            .map((id) => this.apply(id, 'job-cancelled', (r, now) => jobCancelled(r.meta, r.state, now))),
        );
      }
    }
    return this.batchSummary(batchId);
  }

  /**
   * Writes final jobs to the store of record, a group at a time, and lets Redis' copies expire
   * sooner (`keepSec`). Returns how many it wrote; a failed write is tried again on the next call.
   */
  async archiveFinished(keepSec: number, group = 500): Promise<number> {
    const { archive, store } = this.deps;
    if (archive === undefined) return 0;
    const ids = await store.unarchivedIds(group);
    if (ids.length === 0) return 0;
    const entries = await store.archiveEntries(ids);
    const jobs = entries.filter((e): e is NonNullable<typeof e> => e !== undefined);
    await archive.saveJobs(jobs);
    // An id whose job is gone from Redis has nothing left to write.
    await store.archivedJobs(ids, keepSec);
    return jobs.length;
  }

  /** Sends a batch's counts soon: at most one event per batch every `BATCH_EVENT_MS`. */
  private batchChanged(batchId: string): void {
    if (this.batchEvents.has(batchId)) return;
    const timer = setTimeout(() => {
      this.batchEvents.delete(batchId);
      void this.deps.store
        .batch(batchId)
        .then((batch) => {
          if (batch === undefined) return;
          const { counts, done } = summaryOfBatch(batch);
          this.deps.progress.batch({ batchId, counts, done });
        })
        .catch(() => undefined);
    }, BATCH_EVENT_MS);
    timer.unref();
    this.batchEvents.set(batchId, timer);
  }

  /**
   * Picks up every unfinished job after a (re)start: re-arms deadlines, queues again the horizons
   * in flight (a no-op for those still queued) and any the policy wants. Returns how many jobs.
   */
  async resume(): Promise<number> {
    const ids = await this.deps.store.unfinishedIds();
    for (const id of ids) {
      const record = await this.deps.store.load(id);
      if (record === undefined || isFinalStatus(record.state.status)) continue;
      this.armDeadline(record.meta);
      const inFlight = record.state.sweep.horizons.filter(
        (h) => h.state === 'queued' || h.state === 'running',
      );
      if (inFlight.length > 0) {
        const instance = await this.instances.instance(id);
        await this.deps.dispatch.enqueue(
          await this.horizons(
            record.meta,
            instance,
            inFlight.map((h) => h.t),
            record.state.sweep,
          ),
        );
      }
      for (const h of inFlight) {
        const cubes = await this.splits.resumed(record.meta, record.state, h);
        if (cubes !== undefined) await this.deps.dispatch.enqueue(cubes);
      }
      await this.apply(id, 'dominated', (r, now) => {
        const transition = reconcile(r.meta, r.state, now);
        return transition.enqueue.length > 0 || transition.finished ? transition : undefined;
      });
    }
    return ids.length;
  }

  /** Stops the deadline timers (the jobs themselves go on, in Redis). */
  close(): void {
    for (const timer of [...this.timers.values(), ...this.batchEvents.values()]) clearTimeout(timer);
    this.timers.clear();
    this.batchEvents.clear();
    this.splits.close();
  }

  /**
   * The queue entries of horizons `ts`, as `sweep` has them queued; with a portfolio, each with its
   * siblings: the next configurations in the record's order (docs/farm.md#portfolio).
   */
  private async horizons(
    meta: JobMeta,
    instance: unknown,
    ts: readonly number[],
    sweep: SweepState,
  ): Promise<HorizonToQueue[]> {
    const own = ts.map((t) => horizonEntry(meta, instance, t, sweep));
    return this.portfolio.withSiblings(meta, sweep, own);
  }

  /**
   * Runs `decide` on the stored job (compare-and-set), then carries out what it decided. Running
   * horizons are told to stop as soon as the decision is known, before it is written: a horizon
   * dominated by an answer stays dominated whatever else happens, so the kill need not wait.
   */
  private async apply(
    jobId: string,
    reason: CancelReason,
    decide: Decide,
    decidedAt?: number,
  ): Promise<void> {
    await this.serial.run(jobId, async () => {
      const now = this.clock();
      const answeredAt = Math.min(decidedAt ?? now, now);
      const outcome = await this.deps.store.update(
        jobId,
        async (record): Promise<(JobTransition & JobWrite) | undefined> => {
          const transition = decide(record, now);
          if (transition === undefined) return undefined;
          const markers = runIds(record.meta, transition);
          const cancelReason = transition.finished && reason === 'dominated' ? 'job-finished' : reason;
          const stopping = this.deps.dispatch.stopRunning(markers, cancelReason, answeredAt);
          if (!transition.finished) {
            await stopping;
            return { ...transition, markers };
          }
          const plan = transition.state.plan;
          const render = await this.instances.render(record.meta, plan?.solution);
          const secondRender =
            plan?.secondSolution === undefined
              ? undefined
              : await this.instances.render(record.meta, plan.secondSolution);
          await stopping;
          return {
            ...transition,
            // The job's own marker stops any of its horizons that starts late; a job whose end cut
            // none short has none left to start, so it leaves no marker behind in Redis.
            markers: markers.length === 0 ? [] : [...markers, jobId],
            resource: buildJobResource(record.meta, transition.state, now, render, secondRender),
          };
        },
      );
      if (outcome === undefined) return;
      const { meta } = outcome.record;
      if (meta.batchId !== undefined && outcome.record.state.status !== outcome.decision.state.status) {
        this.batchChanged(meta.batchId);
      }
      await this.carryOut(meta, outcome.decision, reason, answeredAt);
    });
  }

  private async carryOut(
    meta: JobMeta,
    transition: JobTransition,
    reason: CancelReason,
    answeredAt: number,
  ): Promise<void> {
    const { dispatch, progress, metrics } = this.deps;
    const work: Array<Promise<void>> = [];
    if (transition.cancel.length > 0) {
      const ids = runIds(meta, transition);
      // Told again now that the markers are written: a horizon that started in between (and so
      // saw no marker) is caught by this message; one that starts later sees the marker.
      work.push(
        dispatch.stopRunning(
          ids,
          transition.finished && reason === 'dominated' ? 'job-finished' : reason,
          answeredAt,
        ),
      );
      work.push(dispatch.removeWaiting(ids));
    }
    if (transition.enqueue.length > 0) {
      const instance = await this.instances.instance(meta.id);
      work.push(
        this.horizons(meta, instance, transition.enqueue, transition.state.sweep).then((horizons) =>
          dispatch.enqueue(horizons),
        ),
      );
    }
    for (const cubes of this.splits.follow(meta, transition)) {
      work.push(cubes.then((entries) => dispatch.enqueue(entries)));
    }
    if (transition.race !== undefined) work.push(this.portfolio.recordRace(transition.race));
    for (const event of transition.horizonEvents) progress.horizon(event, meta.batchId);
    if (transition.jobEvent !== undefined) progress.job(transition.jobEvent, meta.batchId);
    if (transition.finished) {
      metrics.jobFinished(meta.game, transition.state.status);
      clearTimeout(this.timers.get(meta.id));
      this.timers.delete(meta.id);
      this.instances.forget(meta.id);
      this.splits.forget(meta.id);
    }
    await Promise.all(work);
  }

  private armDeadline(meta: JobMeta): void {
    const deadline = meta.deadline;
    if (deadline === undefined || this.timers.has(meta.id)) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(meta.id);
        // A timer may fire a moment before the clock reaches the deadline: wait out the rest.
        if (this.clock() < deadline) return this.armDeadline(meta);
        void this.apply(meta.id, 'timeout', (r, now) => deadlinePassed(r.meta, r.state, now)).catch(
          () => undefined,
        );
      },
      Math.max(0, deadline - this.clock()),
    );
    timer.unref();
    this.timers.set(meta.id, timer);
  }
}

/**
 * The queue ids of the runs a transition cancels: a horizon's current run, its siblings, and the
 * cubes of its split still open (those refuted or unanswered have ended).
 */
function runIds(meta: JobMeta, transition: JobTransition): string[] {
  return transition.cancel.flatMap((t) => {
    const run = horizonRecord(transition.state.sweep, t)?.run;
    const split = transition.state.splits?.[t];
    const cubes = split === undefined || split.run !== (run ?? 1) ? [] : openCubes(split);
    return [
      horizonJobId(meta.id, t, run),
      ...siblingIds(meta, t, run),
      ...cubes.map((i) => horizonJobId(meta.id, t, run, undefined, i)),
    ];
  });
}

/** Cancels of one batch's jobs applied at once. */
const CANCEL_CONCURRENCY = 16;
/** The least time between two `batch` events of one batch. */
const BATCH_EVENT_MS = 250;

/**
 * A batch request that conflicts with the batch as it is (HTTP 409): a part at an offset the
 * batch does not end at, or a key another request is using at this moment (`field`).
 */
export class BatchOffsetConflict extends Error {
  constructor(
    readonly size: number,
    readonly reason: string,
    readonly field: 'offset' | 'key' = 'offset',
  ) {
    super(`${field}: ${reason}`);
  }
}
