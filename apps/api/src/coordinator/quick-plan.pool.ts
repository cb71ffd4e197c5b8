import { Worker } from 'node:worker_threads';

import type { KnownPlan } from '@satfarm/sweep';
import { threadExecArgv } from '@satfarm/engine';

/** What a quick-plan search gave: a verified plan, none, or why it failed. */
export type QuickPlanOutcome = { known?: KnownPlan<unknown> } | { error: string };

/** Finds a job's quick plan off the API's event loop (see `QuickPlanPool`). */
export interface QuickPlanSource {
  /**
   * The game's quick plan for `instance` (as the client sent it), verified, when it has one; the
   * search gives up at `deadline` (epoch ms: the job's), when given.
   */
  find(game: string, instance: unknown, max: number, deadline?: number): Promise<QuickPlanOutcome>;
  close(): Promise<void>;
}

/** A request to the quick-plan thread. */
export interface QuickPlanRequest {
  id: number;
  game: string;
  instance: unknown;
  max: number;
  /** Epoch ms past which the search gives up (the job's deadline). */
  deadline?: number;
}

/** The thread's answer to request `id`. */
export type QuickPlanAnswer = QuickPlanOutcome & { id: number };

/**
 * Runs games' quick plans (`GameDefinition.quickPlan`, e.g. Hex-a-Hop's beam search: up to a few
 * seconds) in one worker thread, so a coordinator keeps answering HTTP and reports meanwhile. The
 * thread starts with the first request and does not keep the process alive; requests are served
 * in order. A failed search, or the thread's end (e.g. past `heapMiB`), answers with the reason
 * (also given to `onError`): a quick plan only saves time, and a job goes on without one.
 */
export class QuickPlanPool implements QuickPlanSource {
  private worker?: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, (outcome: QuickPlanOutcome) => void>();

  constructor(
    private readonly readableFiles: readonly string[],
    private readonly onError: (message: string) => void = () => undefined,
    private readonly heapMiB?: number,
  ) {}

  find(game: string, instance: unknown, max: number, deadline?: number): Promise<QuickPlanOutcome> {
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({
        id,
        game,
        instance,
        max,
        ...(deadline === undefined ? {} : { deadline }),
      } satisfies QuickPlanRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.settleAll('the coordinator closed');
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(new URL('./quick-plan.thread.js', import.meta.url), {
      workerData: { readableFiles: [...this.readableFiles] },
      execArgv: threadExecArgv(),
      // Past it the thread ends (ERR_WORKER_OUT_OF_MEMORY) and its requests fail; the process lives.
      ...(this.heapMiB === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: this.heapMiB } }),
    });
    worker.unref();
    worker.on('message', (answer: QuickPlanAnswer) => {
      const { id, ...outcome } = answer;
      if ('error' in outcome) this.onError(`quick plan: ${outcome.error}`);
      this.pending.get(id)?.(outcome);
      this.pending.delete(id);
    });
    const ended = (reason: string): void => {
      // After close(), or a newer thread's start, this one's requests are settled already.
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (reason !== '') this.onError(`quick plan thread: ${reason}`);
      this.settleAll(`the quick plan thread stopped${reason === '' ? '' : `: ${reason}`}`);
    };
    worker.on('error', (err) => ended(err.message));
    worker.on('exit', () => ended(''));
    this.worker = worker;
    return worker;
  }

  private settleAll(error: string): void {
    for (const resolve of this.pending.values()) resolve({ error });
    this.pending.clear();
  }
}
