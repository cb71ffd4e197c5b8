import { type HorizonCubes, joinCube, splitAtDepth, splitHorizon } from '@satfarm/engine';
import type { HorizonReport } from '@satfarm/queue';
import { horizonRecord, type SweepState } from '@satfarm/sweep';

import type { FarmMetrics } from '../metrics/farm-metrics.js';
import { horizonEntry } from './horizon-entry.js';
import type { HorizonToQueue } from './horizon.dispatch.js';
import type { ApplyDecision, Decide } from './job-decision.js';
import type { GameLookup, JobInstances } from './job-instances.js';
import type { JobMeta, JobState } from './job-record.js';
import { jobFailed, type JobTransition } from './job-transitions.js';
import type { JobStore } from './job.store.js';
import { LruCache } from './lru.cache.js';
import {
  cubeEnded,
  endsWholeRun,
  horizonSplit,
  type MadeSplit,
  openCubes,
  splitOf,
  wholeRunEnded,
} from './split.js';

/** What the split's orchestration uses of the coordinator's parts. */
export interface SplitOrchestratorDeps {
  store: Pick<JobStore, 'load'>;
  games: GameLookup;
  instances: JobInstances;
  metrics: Pick<FarmMetrics, 'horizonEnded'>;
  /** The coordinator's compare-and-set of a decision on a stored job. */
  apply: ApplyDecision;
  clock: () => number;
}

/**
 * The coordinator's side of splitting (docs/farm.md#splitting): a timer per running horizon, the
 * cubes made (and made again from their depth), queued, and their answers applied, a SAT cube's
 * plan joined and verified. What the job's state becomes is split.ts's decision.
 */
export class SplitOrchestrator {
  /** The split timers of running horizons, by `<job>.t<T>.r<run>`. */
  private readonly timers = new Map<string, NodeJS.Timeout>();
  /** Split horizons' cubes, made once (a SAT cube's join, the queueing) by `<job>.t<T>.r<run>`. */
  private readonly cubeSets = new LruCache<string, HorizonCubes<unknown, unknown>>(16);

  constructor(private readonly deps: SplitOrchestratorDeps) {}

  /**
   * A cube's report: its start is of no interest; its answer refutes it or answers the horizon
   * with its plan joined to its moves and verified from the original instance (`joinCube`); no
   * answer or a failure leaves the split unable to prove the horizon.
   */
  async cubeReport(report: HorizonReport, index: number): Promise<void> {
    if (report.kind === 'started') return;
    const { apply, metrics, store } = this.deps;
    const cube = { t: report.t, run: report.run, index };
    if (report.kind === 'failed' || report.result === 'unknown') {
      return this.cubeLost(report.jobId, cube, report.kind === 'failed' ? report.error : report.reason);
    }
    if (report.result === 'cancelled') return;
    metrics.horizonEnded(report.game, report.result, report.stats.solverMs, undefined, report.stats);
    const answeredAt = report.startedAt + report.ms;
    if (report.result === 'unsat') {
      await apply(
        report.jobId,
        'dominated',
        (r, now) => cubeEnded(r.meta, r.state, cube, { result: 'unsat', report }, now),
        answeredAt,
      );
      return;
    }
    const record = await store.load(report.jobId);
    const split = record === undefined ? undefined : splitOf(record.state, report.t, report.run);
    if (record === undefined || split === undefined) return;
    let joined: { plan: unknown; planLength: number };
    try {
      const cubes = await this.cubesOf(record.meta, report.t, split.run, split.depth);
      const made = cubes?.cubes[index];
      if (made === undefined) throw new Error(`the split has no cube ${index}`);
      const game = this.deps.games(record.meta.game);
      joined = joinCube(game, await this.deps.instances.parsed(record.meta), made, report.plan);
    } catch (err) {
      // A joined plan the game's simulator rejects is a bug in its split or join, never an answer.
      const error = `horizon ${report.t}, cube ${index}: ${err instanceof Error ? err.message : String(err)}`;
      await apply(report.jobId, 'job-finished', (r, now) => jobFailed(r.meta, r.state, error, now));
      return;
    }
    await apply(
      report.jobId,
      'dominated',
      (r, now) => cubeEnded(r.meta, r.state, cube, { result: 'sat', joined, report }, now),
      answeredAt,
    );
  }

  /** A cube ended without an answer (its time, its formula's limit, a failure, a loss). */
  async cubeLost(
    jobId: string,
    cube: { t: number; run: number | undefined; index: number },
    reason: string | undefined,
  ): Promise<void> {
    await this.deps.apply(jobId, 'dominated', (r, now) =>
      cubeEnded(
        r.meta,
        r.state,
        cube,
        { result: 'unknown', ...(reason === undefined ? {} : { reason }) },
        now,
      ),
    );
  }

  /**
   * Carries out a transition's split work: the split timers it arms, and the entries of the cubes
   * it queues (one promise per split, for the caller to queue).
   */
  follow(meta: JobMeta, transition: JobTransition): Array<Promise<HorizonToQueue[]>> {
    const cubes = (transition.queueCubes ?? []).map(({ t, run, indexes }) =>
      this.cubeEntries(meta, transition.state, t, run, indexes),
    );
    for (const t of transition.armSplit ?? []) {
      const record = horizonRecord(transition.state.sweep, t);
      if (record?.startedAt !== undefined) this.arm(meta, t, record.run ?? 1, record.startedAt);
    }
    return cubes;
  }

  /**
   * A horizon in flight after a restart: the open cubes of its split, to queue again (a no-op for
   * those still queued), or, when it is not split, its split timer re-armed from its start.
   */
  async resumed(
    meta: JobMeta,
    state: JobState,
    h: SweepState['horizons'][number],
  ): Promise<HorizonToQueue[] | undefined> {
    const split = splitOf(state, h.t);
    if (split === undefined) {
      if (h.state === 'running' && h.startedAt !== undefined) this.arm(meta, h.t, h.run ?? 1, h.startedAt);
      return undefined;
    }
    return this.cubeEntries(meta, state, h.t, split.run, openCubes(split)).catch(() => []);
  }

  /** Stops a finished job's split timers. */
  forget(jobId: string): void {
    for (const [key, timer] of this.timers) {
      if (!key.startsWith(`${jobId}.t`)) continue;
      clearTimeout(timer);
      this.timers.delete(key);
    }
  }

  close(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }

  /**
   * Horizon `t` (its run `run`) has run `options.split` seconds: split it into cubes (the game's
   * split, here on the event loop, bounded by `MAX_SPLIT_STATES`) and queue them; the whole run
   * goes on beside them. A game that cannot split at this horizon leaves the whole run alone.
   */
  private async splitRunning(meta: JobMeta, t: number, run: number): Promise<void> {
    const { apply } = this.deps;
    const record = await this.deps.store.load(meta.id);
    if (record === undefined || horizonRecord(record.state.sweep, t)?.state !== 'running') return;
    let cubes: HorizonCubes<unknown, unknown> | undefined;
    try {
      cubes = await this.cubesOf(meta, t, run);
    } catch (err) {
      const error = `horizon ${t}: ${err instanceof Error ? err.message : String(err)}`;
      await apply(meta.id, 'job-finished', (r, now) => jobFailed(r.meta, r.state, error, now));
      return;
    }
    if (cubes === undefined) return;
    const made: MadeSplit = {
      depth: cubes.depth,
      cubes: cubes.cubes.map(({ index, t: cubeT, lowerBound }) => ({ index, t: cubeT, lowerBound })),
      ...(cubes.plan === undefined ? {} : { plan: cubes.plan }),
    };
    await apply(meta.id, 'dominated', (r, now) => horizonSplit(r.meta, r.state, t, run, made, now));
  }

  /**
   * The cubes of horizon `t` (its run `run`): split as `SPLIT_MIN_CUBES` asks, or, given
   * the split's `depth`, made again exactly as they were (after a restart, on another replica).
   */
  private async cubesOf(
    meta: JobMeta,
    t: number,
    run: number,
    depth?: number,
  ): Promise<HorizonCubes<unknown, unknown> | undefined> {
    const key = `${meta.id}.t${t}.r${run}`;
    const cached = this.cubeSets.get(key);
    if (cached !== undefined && (depth === undefined || cached.depth === depth)) return cached;
    const game = this.deps.games(meta.game);
    const parsed = await this.deps.instances.parsed(meta);
    const cubes =
      depth === undefined
        ? splitHorizon(game, parsed, t, { minCubes: SPLIT_MIN_CUBES })
        : splitAtDepth(game, parsed, t, depth);
    if (cubes !== undefined) this.cubeSets.set(key, cubes);
    return cubes;
  }

  /** Splits horizon `t` (its run `run`) once it has run the job's `options.split` seconds. */
  private arm(meta: JobMeta, t: number, run: number, startedAt: number): void {
    const after = meta.options.split;
    const key = `${meta.id}.t${t}.r${run}`;
    if (after === undefined || this.timers.has(key)) return;
    const timer = setTimeout(
      () => {
        this.timers.delete(key);
        void this.splitRunning(meta, t, run).catch(() => undefined);
      },
      Math.max(0, startedAt + after * 1000 - this.deps.clock()),
    );
    timer.unref();
    this.timers.set(key, timer);
  }

  /** The queue entries of cubes `indexes` of split horizon `t` (its run `run`). */
  private async cubeEntries(
    meta: JobMeta,
    state: JobState,
    t: number,
    run: number,
    indexes: readonly number[],
  ): Promise<HorizonToQueue[]> {
    const split = state.splits?.[t];
    if (split === undefined || indexes.length === 0) return [];
    const cubes = await this.cubesOf(meta, t, run, split.depth);
    if (cubes === undefined) return [];
    const base = horizonEntry(meta, await this.deps.instances.instance(meta.id), t, state.sweep);
    // A cube is no patient probe: it runs until it answers, the job's deadline or a cancel.
    const { limitMs: _limitMs, ...payload } = base.payload;
    return indexes.flatMap((index) => {
      const cube = cubes.cubes[index];
      if (cube === undefined) return [];
      return [
        {
          ...base,
          payload: {
            ...payload,
            cube: { index, t: cube.t, lowerBound: cube.lowerBound, instance: cube.instance },
          },
        },
      ];
    });
  }
}

/**
 * `decide` for a horizon's own report, unless the report ends a split horizon's whole run without
 * an answer: that leaves its cubes to decide.
 */
export function unlessWholeRunEnded(report: HorizonReport, decide: Decide): Decide {
  return (r, now) =>
    endsWholeRun(r.state, report)
      ? wholeRunEnded(r.meta, r.state, report.t, report.run, now)
      : decide(r, now);
}

/**
 * The fewest cubes left to a solver a farm's split aims for (`splitHorizon`'s `minCubes`): one
 * move deep unless that leaves a single cube open. The coordinator does not know the farm's free
 * slots, and every move deeper multiplies the cubes and their summed cost (docs/solvers.md: 12
 * cubes of a 3x3 horizon took twice its whole run's solver time).
 */
const SPLIT_MIN_CUBES = 2;
