import { Queue, QueueEvents, Worker } from 'bullmq';
import type { Redis } from 'ioredis';

import { gameById } from '@satfarm/games';
import {
  describeRedisError,
  FarmKeys,
  type FarmOverview,
  HorizonProgressSchema,
  HorizonReportSchema,
  parseHorizonJobId,
  parsePayload,
  QueueName,
  WORKER_METRICS,
} from '@satfarm/queue';

import { buildFarmOverview, type ClientListEntry } from '../farm/farm-overview.builder.js';
import type { FarmMetrics, QueueCounts } from '../metrics/farm-metrics.js';
import { FairShareGate } from './fair-share.gate.js';
import { addHorizons, HorizonDispatch } from './horizon.dispatch.js';
import type { JobArchive } from './job-archive.js';
import { JobStore } from './job.store.js';
import { RedisPortfolioRecord } from './portfolio-record.redis.js';
import { BoundPool } from './bound.pool.js';
import { QuickPlanPool } from './quick-plan.pool.js';
import {
  type CoordinatorSettings,
  type GameLookup,
  type ProgressSink,
  SweepCoordinator,
} from './sweep-coordinator.js';

/** How a coordinator runs. */
export interface CoordinatorRuntimeOptions {
  /** A command connection (shared); the runtime duplicates it where it needs its own. */
  connection: Redis;
  prefix: string;
  jobTtlSec: number;
  settings: CoordinatorSettings;
  metrics: FarmMetrics;
  progress: ProgressSink;
  games?: GameLookup;
  /** Reports applied at once (they are I/O bound). */
  reportConcurrency?: number;
  /** Heap limit of the quick-plan thread (FarmConfig.quickPlanHeapMiB); unset: node's default. */
  quickPlanHeapMiB?: number;
  /** The fair-share gate's lookahead (FarmConfig.fairShare); unset: no gate, horizons go straight to the queue. */
  fairLookahead?: number;
  /** The store of record (docs/batches.md, "Store of record"); unset: Redis alone. */
  archive?: JobArchive;
  /** Seconds Redis keeps a job once the store of record has it (reads then fall back to it). */
  archivedKeepSec?: number;
}

/**
 * The coordinator with its queues: the horizons queue it feeds, the reports queue it consumes
 * (a BullMQ worker, so reports wait in Redis while no coordinator runs), and the store. It owns
 * them and closes them in `close()`.
 */
export class CoordinatorRuntime {
  readonly coordinator: SweepCoordinator;
  readonly horizons: Queue;
  readonly reports: Queue;
  private readonly store: JobStore;
  private reportWorker?: Worker;
  private horizonEvents?: QueueEvents;
  private eventsConnection?: Redis;
  private closing?: Promise<void>;
  private readonly quickPlans: QuickPlanPool;
  private readonly bounds: BoundPool;
  private readonly gate?: FairShareGate;
  private archiving?: Promise<void>;
  private stopArchiving?: () => void;

  constructor(private readonly options: CoordinatorRuntimeOptions) {
    const { connection, prefix } = options;
    const keys = new FarmKeys(prefix);
    this.horizons = new Queue(QueueName.horizons, { connection, prefix });
    this.reports = new Queue(QueueName.reports, { connection, prefix });
    // The shared connection's owner logs its errors (without the address); a queue with no
    // listener would print each one again, with the address and a stack.
    for (const queue of [this.horizons, this.reports]) queue.on('error', () => undefined);
    this.store = new JobStore(connection, keys, options.jobTtlSec, options.archive !== undefined);
    this.quickPlans = new QuickPlanPool(
      options.settings.levelFiles,
      (message) => process.stderr.write(`satfarm coordinator: ${message}\n`),
      options.quickPlanHeapMiB,
    );
    this.bounds = new BoundPool(options.settings.levelFiles, (message) =>
      process.stderr.write(`satfarm coordinator: ${message}\n`),
    );
    if (options.fairLookahead !== undefined) {
      this.gate = new FairShareGate(this.horizons, connection, keys, (h) => addHorizons(this.horizons, h), {
        lookahead: options.fairLookahead,
        onError: (err) => process.stderr.write(`satfarm coordinator: ${describeRedisError(err)}\n`),
      });
    }
    this.coordinator = new SweepCoordinator({
      store: this.store,
      dispatch: new HorizonDispatch(this.horizons, connection, keys, this.gate),
      progress: options.progress,
      metrics: options.metrics,
      games: options.games ?? gameById,
      settings: options.settings,
      quickPlans: this.quickPlans,
      bounds: this.bounds,
      // The store of record keeps what the farm learned across Redis restarts, where there is one.
      portfolioRecord: options.archive?.portfolioRecord?.() ?? new RedisPortfolioRecord(connection, keys),
      ...(options.archive === undefined ? {} : { archive: options.archive }),
    });
    options.metrics.readQueuesFrom({
      counts: () => this.queueCounts(),
      bullmqExposition: async () =>
        mergeExpositions(
          await Promise.all([this.horizons, this.reports].map((q) => q.exportPrometheusMetrics())),
        ),
    });
  }

  /** Resumes unfinished jobs, then starts consuming reports (and archiving finished jobs). */
  async start(): Promise<void> {
    await this.coordinator.resume();
    this.gate?.start();
    if (this.options.archive !== undefined) this.archiving = this.archiveLoop();
    const worker = new Worker(
      QueueName.reports,
      async (job) => {
        await this.coordinator.handleReport(parsePayload(HorizonReportSchema, job.data, 'data'));
        // A report means a slot was taken or freed: time to release the next horizons.
        void this.gate?.release().catch(() => undefined);
      },
      {
        connection: this.options.connection,
        prefix: this.options.prefix,
        concurrency: this.options.reportConcurrency ?? 32,
        autorun: false,
        metrics: WORKER_METRICS,
        // Applying a report takes milliseconds: a coordinator that died holding one hands it on soon.
        lockDuration: 10_000,
        stalledInterval: 5_000,
      },
    );
    worker.on('error', (err) => process.stderr.write(`satfarm coordinator: ${describeRedisError(err)}\n`));
    this.reportWorker = worker;
    // Workers report their own failures; a horizon whose workers died holding it fails here.
    this.eventsConnection = this.options.connection.duplicate();
    this.eventsConnection.on('error', () => undefined);
    this.horizonEvents = new QueueEvents(QueueName.horizons, {
      connection: this.eventsConnection,
      prefix: this.options.prefix,
    });
    this.horizonEvents.on('error', () => undefined);
    this.horizonEvents.on('failed', ({ jobId, failedReason }) => {
      if (/stalled/i.test(failedReason))
        void this.coordinator.horizonLost(jobId, failedReason).catch(() => undefined);
    });
    this.horizonEvents.on('progress', ({ jobId, data }) => {
      const horizon = parseHorizonJobId(jobId);
      const progress = HorizonProgressSchema.safeParse(data);
      // A cube's search is not its horizon's: the horizon's events count its cubes refuted instead.
      if (horizon === undefined || horizon.cube !== undefined || !progress.success) return;
      const { ms, conflicts, vars, clauses, solver } = progress.data;
      this.options.progress.solverProgress({
        jobId: horizon.jobId,
        t: horizon.t,
        state: 'running',
        ms,
        stats: { vars, clauses, solver, conflicts },
      });
    });
    void worker
      .run()
      .catch((err: Error) => process.stderr.write(`satfarm coordinator: ${describeRedisError(err)}\n`));
    await worker.waitUntilReady();
  }

  /** Both queues' counts; the horizons' include `pending`, those the fair-share gate holds back. */
  async queueCounts(): Promise<QueueCounts[]> {
    const [counts, pending] = await Promise.all([
      Promise.all(
        [this.horizons, this.reports].map(async (queue) => ({
          queue: queue.name,
          counts: await queue.getJobCounts(
            'waiting',
            'prioritized',
            'active',
            'delayed',
            'completed',
            'failed',
          ),
        })),
      ),
      this.gate?.pending() ?? 0,
    ]);
    counts[0]!.counts.pending = pending;
    return counts;
  }

  /** The farm at a glance: queue counts, the workers connected, jobs in flight. */
  async overview(): Promise<FarmOverview> {
    const [[horizons, reports], workers, jobs, active] = await Promise.all([
      this.queueCounts(),
      // A Redis that refuses CLIENT LIST (an ACL without it, a managed Redis that renames it)
      // lists no workers; the rest of the overview still answers.
      this.horizons.getWorkers().catch((): ClientListEntry[] => []),
      this.store.unfinishedCounts(),
      this.horizons.getActive(0, MAX_LISTED_ACTIVE - 1),
    ]);
    const names = workers.map((w) => /:w:(.*)$/.exec(w.rawname ?? '')?.[1]).filter((n) => n !== undefined);
    const running = active.map((job) =>
      job.id === undefined ? undefined : parseHorizonJobId(job.id)?.jobId,
    );
    const [slots, summaries] = await Promise.all([
      this.store.workerSlots(names),
      this.store.summaries(running.filter((id) => id !== undefined)),
    ]);
    return buildFarmOverview({
      horizons: horizons!.counts,
      reports: reports!.counts,
      workers,
      slots,
      active: active.flatMap((job) => {
        const horizon = job.id === undefined ? undefined : parseHorizonJobId(job.id);
        if (horizon === undefined) return [];
        return [
          {
            ...(job.processedBy === undefined ? {} : { worker: job.processedBy }),
            jobId: horizon.jobId,
            t: horizon.t,
            startedAt: job.processedOn ?? job.timestamp,
            ...(summaries.has(horizon.jobId) ? { summary: summaries.get(horizon.jobId)! } : {}),
          },
        ];
      }),
      jobs,
      now: Date.now(),
    });
  }

  /**
   * Writes finished jobs to the store of record as they end, a group at a time (docs/batches.md).
   * A failed write (the database away) is logged and tried again; the jobs wait in Redis meanwhile.
   */
  private async archiveLoop(): Promise<void> {
    const keepSec = this.options.archivedKeepSec ?? ARCHIVED_KEEP_SEC;
    let stopped = false;
    let wake: (() => void) | undefined;
    this.stopArchiving = () => {
      stopped = true;
      wake?.();
    };
    let failing = false;
    while (!stopped) {
      let written = 0;
      try {
        written = await this.coordinator.archiveFinished(keepSec);
        failing = false;
      } catch (err) {
        if (!failing)
          process.stderr.write(`satfarm coordinator: store of record: ${(err as Error).message}\n`);
        failing = true;
      }
      if (written === 0 && !stopped) {
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, failing ? 5_000 : ARCHIVE_POLL_MS).unref();
        });
      }
    }
    // What ended before the stop is written now, so a clean shutdown leaves nothing behind.
    await this.coordinator.archiveFinished(keepSec).catch(() => 0);
  }

  close(): Promise<void> {
    this.closing ??= (async () => {
      this.stopArchiving?.();
      await this.archiving;
      this.coordinator.close();
      await this.gate?.close();
      await this.quickPlans.close();
      await this.bounds.close();
      await this.horizonEvents?.close();
      await this.eventsConnection?.quit().catch(() => this.eventsConnection?.disconnect());
      await this.reportWorker?.close();
      await this.horizons.close();
      await this.reports.close();
    })();
    return this.closing;
  }
}

/** Most running horizons `GET /v1/farm` lists by worker. */
const MAX_LISTED_ACTIVE = 1000;

/** How long a job stays in Redis once archived, unless the runtime is told otherwise. */
const ARCHIVED_KEEP_SEC = 3600;
/** How often finished jobs are looked for when none were waiting. */
const ARCHIVE_POLL_MS = 1_000;

/** Joins several Prometheus expositions, keeping each metric family's HELP and TYPE lines once. */
export function mergeExpositions(texts: string[]): string {
  const seen = new Set<string>();
  const headers = new Map<string, string[]>();
  const samples = new Map<string, string[]>();
  for (const line of texts.flatMap((t) => t.split('\n'))) {
    if (line.trim() === '') continue;
    const header = /^# (HELP|TYPE) (\S+)/.exec(line);
    const name = header ? header[2]! : /^([a-zA-Z_:][a-zA-Z0-9_:]*)/.exec(line)?.[1];
    if (name === undefined) continue;
    if (header) {
      if (seen.has(line)) continue;
      seen.add(line);
      headers.set(name, [...(headers.get(name) ?? []), line]);
    } else {
      samples.set(name, [...(samples.get(name) ?? []), line]);
    }
  }
  const names = [...new Set([...headers.keys(), ...samples.keys()])];
  return names.flatMap((n) => [...(headers.get(n) ?? []), ...(samples.get(n) ?? [])]).join('\n');
}
