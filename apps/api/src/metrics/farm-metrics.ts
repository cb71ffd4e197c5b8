import type { SolverUsage } from '@satfarm/engine';
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Job counts of one BullMQ queue by state. */
export interface QueueCounts {
  queue: string;
  counts: Record<string, number>;
}

/** Where the gauges read the queues from at scrape time. */
export interface QueueCountSource {
  counts(): Promise<QueueCounts[]>;
  /** BullMQ's own exposition of its queues (`bullmq_job_count` and friends). */
  bullmqExposition(): Promise<string>;
}

/**
 * The farm's metrics (docs/farm.md#metrics) in a registry of their own: counters and histograms the
 * coordinator updates as jobs and horizons finish, and queue gauges read from Redis when scraped.
 */
export class FarmMetrics {
  readonly registry = new Registry();
  private source?: QueueCountSource;

  readonly jobs = new Counter({
    name: 'satfarm_jobs_total',
    help: 'Jobs finished, by game and final status',
    labelNames: ['game', 'status'] as const,
    registers: [this.registry],
  });

  readonly horizons = new Counter({
    name: 'satfarm_horizons_total',
    help: 'Horizon runs ended, by game and result (sat, unsat, unknown, cancelled)',
    labelNames: ['game', 'result'] as const,
    registers: [this.registry],
  });

  readonly quickPlans = new Counter({
    name: 'satfarm_quick_plans_total',
    help: 'Quick-plan searches of new jobs, by game and outcome (found, none, failed)',
    labelNames: ['game', 'outcome'] as const,
    registers: [this.registry],
  });

  readonly proofs = new Counter({
    name: 'satfarm_proofs_total',
    help: "DRAT proofs of certified jobs' runs, by result: verified and rejected by drat-trim, cut at the proof limit, or the check failed",
    labelNames: ['result'] as const,
    registers: [this.registry],
  });

  readonly solverSeconds = new Histogram({
    name: 'satfarm_solver_seconds',
    help: 'Solver run time of one horizon, by game and result',
    labelNames: ['game', 'result'] as const,
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 1800],
    registers: [this.registry],
  });

  readonly solverPeakRss = new Histogram({
    name: 'satfarm_solver_peak_rss_bytes',
    help: "Peak resident set of one horizon's solver processes, by game (where the worker measured it)",
    labelNames: ['game'] as const,
    buckets: [16, 64, 256, 512, 1024, 2048, 4096, 8192, 16384].map((mib) => mib * 2 ** 20),
    registers: [this.registry],
  });

  readonly solverCpuSeconds = new Counter({
    name: 'satfarm_solver_cpu_seconds_total',
    help: 'CPU time of solver processes, user and system, by game (where the worker measured it)',
    labelNames: ['game'] as const,
    registers: [this.registry],
  });

  readonly cancelLatency = new Histogram({
    name: 'satfarm_cancel_latency_seconds',
    help: 'From the result that made a horizon useless to the death of its solver',
    buckets: [
      0.001, 0.0025, 0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.25, 0.5, 1, 2.5, 5,
    ],
    registers: [this.registry],
  });

  constructor() {
    const queueJobs: Gauge<'queue' | 'state'> = new Gauge({
      name: 'satfarm_queue_jobs',
      help: 'Jobs in each farm queue by state',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      collect: async () => {
        queueJobs.reset();
        for (const { queue, counts } of (await this.source?.counts()) ?? []) {
          for (const [state, n] of Object.entries(counts)) queueJobs.set({ queue, state }, n);
        }
      },
    });
    const activeSolvers: Gauge = new Gauge({
      name: 'satfarm_active_solvers',
      help: 'Horizons being solved now, farm-wide (active horizon jobs)',
      registers: [this.registry],
      collect: async () => {
        const horizons = (await this.source?.counts())?.find((q) => q.queue === 'satfarm-horizons');
        activeSolvers.set(horizons?.counts.active ?? 0);
      },
    });
  }

  /** Connects the queue gauges to the queues. */
  readQueuesFrom(source: QueueCountSource): void {
    this.source = source;
  }

  jobFinished(game: string, status: string): void {
    this.jobs.inc({ game, status });
  }

  quickPlanEnded(game: string, outcome: 'found' | 'none' | 'failed'): void {
    this.quickPlans.inc({ game, outcome });
  }

  horizonEnded(
    game: string,
    result: string,
    solverMs: number,
    cancelLatencyMs?: number,
    usage: SolverUsage = {},
  ): void {
    this.horizons.inc({ game, result });
    this.solverSeconds.observe({ game, result }, solverMs / 1000);
    if (usage.solverPeakRssKiB !== undefined)
      this.solverPeakRss.observe({ game }, usage.solverPeakRssKiB * 1024);
    if (usage.solverCpuMs !== undefined) this.solverCpuSeconds.inc({ game }, usage.solverCpuMs / 1000);
    if (cancelLatencyMs !== undefined) this.cancelLatency.observe(cancelLatencyMs / 1000);
  }

  /**
   * The proofs of a finished horizon run of a certified job (its answer's, and its uniqueness
   * check's): the worker checked them, the count is kept here with the farm's other metrics.
   */
  proofsChecked(...proofs: Array<{ result: 'verified' | 'rejected' | 'limit' | 'error' } | undefined>): void {
    for (const proof of proofs) if (proof !== undefined) this.proofs.inc({ result: proof.result });
  }

  /** The Prometheus text exposition: the farm's metrics, then BullMQ's own queue metrics. */
  async exposition(): Promise<string> {
    const own = await this.registry.metrics();
    const bullmq = (await this.source?.bullmqExposition()) ?? '';
    return bullmq === '' ? own : `${own.trimEnd()}\n${bullmq}\n`;
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
