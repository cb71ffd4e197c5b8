import {
  candidateConfigs,
  type ExpectedAnswer,
  MemoryPortfolioRecord,
  orderConfigs,
  type PortfolioRecord,
  type SolverConfig,
} from '@satfarm/engine';
import { horizonJobId, type HorizonReport } from '@satfarm/queue';
import type { SweepState } from '@satfarm/sweep';

import type { HorizonToQueue } from './horizon.dispatch.js';
import type { Decide } from './job-decision.js';
import type { JobMeta } from './job-record.js';
import { siblingRan } from './job-transitions.js';
import { LruCache } from './lru.cache.js';
import { type DecidedRace, expectedAnswer, races } from './race.js';

/**
 * The coordinator's side of a portfolio (docs/farm.md#portfolio): each horizon queued with its
 * siblings in the record's order of configurations, and each decided race added to the record.
 * Who won a race is the job's transitions' decision (race.ts).
 */
export class PortfolioOrchestrator {
  private readonly record: PortfolioRecord;
  /** The record's order of configurations, by game and expected answer, read at most once a second. */
  private readonly orders = new LruCache<string, { at: number; order: Promise<SolverConfig[]> }>(64);

  constructor(
    record: PortfolioRecord | undefined,
    private readonly clock: () => number,
  ) {
    this.record = record ?? new MemoryPortfolioRecord();
  }

  /**
   * The entries `own` of a job's horizons, as `sweep` has them queued, each followed by its
   * siblings when the job races: the next configurations in the record's order.
   */
  async withSiblings(meta: JobMeta, sweep: SweepState, own: HorizonToQueue[]): Promise<HorizonToQueue[]> {
    if (!races(meta)) return own;
    const withSiblings: HorizonToQueue[] = [];
    for (const entry of own) {
      withSiblings.push(entry);
      const { payload } = entry;
      const primary: SolverConfig = { solver: payload.solver, preset: payload.preset ?? 'default', seed: 0 };
      const expected = expectedAnswer(meta, sweep.lower, payload.t);
      const order = await this.configOrder(meta.game, expected, primary);
      order.slice(1, meta.options.portfolio).forEach((config, i) => {
        const { preset: _primaryPreset, ...shared } = payload;
        withSiblings.push({
          ...entry,
          payload: {
            ...shared,
            solver: config.solver,
            ...(config.preset === 'default' ? {} : { preset: config.preset }),
            seed: config.seed,
            sibling: i + 1,
          },
        });
      });
    }
    return withSiblings;
  }

  /** Adds a decided race to the record, which only orders later races: a lost write costs nothing else. */
  recordRace({ game, expected, entries }: DecidedRace): Promise<void> {
    return this.record.add(game, expected, entries).catch(() => undefined);
  }

  /** The configurations in the order the record gives them, `primary` first. */
  private async configOrder(
    game: string,
    expected: ExpectedAnswer,
    primary: SolverConfig,
  ): Promise<SolverConfig[]> {
    const key = `${game}/${expected}/${primary.solver}/${primary.preset}`;
    const now = this.clock();
    let cached = this.orders.get(key);
    if (cached === undefined || now - cached.at >= CONFIG_ORDER_MS) {
      const order = this.record
        .tallies(game, expected)
        .catch(() => new Map())
        .then((tallies) => orderConfigs(candidateConfigs(), tallies, primary));
      cached = { at: now, order };
      this.orders.set(key, cached);
    }
    return cached.order;
  }
}

/**
 * The decision a sibling's `started` or `failed` report makes: its run logged for the race. A
 * sibling that could not run (its solver missing, a crash) costs the race nothing. Undefined for
 * any other report: a sibling's answer decides its horizon as any answer does.
 */
export function siblingDecision(report: HorizonReport): Decide | undefined {
  if (report.sibling === undefined) return undefined;
  if (report.kind === 'started') {
    return (r, now) =>
      siblingRan(r.meta, r.state, report.t, report.run, report.config, {
        startedAt: Math.min(report.at, now),
      });
  }
  if (report.kind === 'failed') {
    return (r, now) =>
      siblingRan(r.meta, r.state, report.t, report.run, report.config, { result: 'unknown', endedAt: now });
  }
  return undefined;
}

/** The queue ids of the siblings of horizon `t`'s run `run`. */
export function siblingIds(meta: JobMeta, t: number, run: number | undefined): string[] {
  const siblings = (meta.options.portfolio ?? 1) - 1;
  return Array.from({ length: Math.max(0, siblings) }, (_, i) => horizonJobId(meta.id, t, run, i + 1));
}

/** How long the record's order of configurations is reused before it is read again. */
const CONFIG_ORDER_MS = 1000;
