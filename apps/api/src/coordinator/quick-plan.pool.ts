import type { KnownPlan } from '@satfarm/sweep';

import type { SearchedBound } from './bound.pool.js';
import { SearchThread } from './search-thread.js';

/** What a quick-plan search gave: a verified plan, none, or why it failed. */
export type QuickPlanOutcome = { known?: KnownPlan<unknown> } | { error: string };

/** Finds a job's quick plan off the API's event loop (see `QuickPlanPool`). */
export interface QuickPlanSource {
  /**
   * The game's quick plan for `instance` (as the client sent it), verified, when it has one; the
   * search gives up at `deadline` (epoch ms: the job's), when given. `searched`: what the game's
   * bound search found for it (`BoundSource`), which a quick plan drawn from the bound (the cube's)
   * then takes rather than searching again.
   */
  find(
    game: string,
    instance: unknown,
    max: number,
    deadline?: number,
    searched?: SearchedBound,
  ): Promise<QuickPlanOutcome>;
  close(): Promise<void>;
}

/**
 * Runs games' quick plans (`GameDefinition.quickPlan`, e.g. Hex-a-Hop's beam search: up to a few
 * seconds) in a search thread of their own (`SearchThread`), in order. A failed search answers
 * with the reason: a quick plan only saves time, and a job goes on without one.
 */
export class QuickPlanPool implements QuickPlanSource {
  private readonly thread: SearchThread;

  constructor(
    readableFiles: readonly string[],
    onError: (message: string) => void = () => undefined,
    heapMiB?: number,
  ) {
    this.thread = new SearchThread('quick plan', readableFiles, onError, heapMiB);
  }

  async find(
    game: string,
    instance: unknown,
    max: number,
    deadline?: number,
    searched?: SearchedBound,
  ): Promise<QuickPlanOutcome> {
    const outcome = await this.thread.run({
      kind: 'quick-plan',
      game,
      instance,
      max,
      ...(deadline === undefined ? {} : { deadline }),
      ...(searched === undefined ? {} : { bound: searched.found }),
    });
    if ('error' in outcome) return outcome;
    return outcome.value === undefined ? {} : { known: outcome.value as KnownPlan<unknown> };
  }

  close(): Promise<void> {
    return this.thread.close();
  }
}
