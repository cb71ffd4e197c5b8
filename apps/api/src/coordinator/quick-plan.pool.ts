import { Worker } from 'node:worker_threads';

import type { KnownPlan } from '@satfarm/sweep';

/** Finds a job's quick plan off the API's event loop (see `QuickPlanPool`). */
export interface QuickPlanSource {
  /** The game's quick plan for `instance` (as the client sent it), verified; undefined if none. */
  find(game: string, instance: unknown, max: number): Promise<KnownPlan<unknown> | undefined>;
  close(): Promise<void>;
}

/** A request to the quick-plan thread. */
export interface QuickPlanRequest {
  id: number;
  game: string;
  instance: unknown;
  max: number;
}

/** The thread's answer: the verified plan (or none), or why the search failed. */
export type QuickPlanAnswer = { id: number; known?: KnownPlan<unknown> } | { id: number; error: string };

/**
 * Runs games' quick plans (`GameDefinition.quickPlan`, e.g. Hex-a-Hop's beam search: up to a few
 * seconds) in one worker thread, so a coordinator keeps answering HTTP and reports meanwhile. The
 * thread starts with the first request and does not keep the process alive; requests are served
 * in order. A failed search, or the thread's end, answers undefined: a quick plan only saves
 * time, and a job goes on without one.
 */
export class QuickPlanPool implements QuickPlanSource {
  private worker?: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, (known: KnownPlan<unknown> | undefined) => void>();

  constructor(
    private readonly readableFiles: readonly string[],
    private readonly onError: (message: string) => void = () => undefined,
  ) {}

  find(game: string, instance: unknown, max: number): Promise<KnownPlan<unknown> | undefined> {
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ id, game, instance, max } satisfies QuickPlanRequest);
    });
  }

  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.settleAll();
    await worker?.terminate();
  }

  private thread(): Worker {
    if (this.worker !== undefined) return this.worker;
    const worker = new Worker(new URL('./quick-plan.thread.js', import.meta.url), {
      workerData: { readableFiles: [...this.readableFiles] },
      // A process started on inline code (`node --input-type=module -e`) passes that flag on, and a
      // thread started from a file refuses it.
      execArgv: process.execArgv.filter((arg) => !arg.startsWith('--input-type')),
    });
    worker.unref();
    worker.on('message', (answer: QuickPlanAnswer) => {
      if ('error' in answer) this.onError(`quick plan: ${answer.error}`);
      this.pending.get(answer.id)?.('known' in answer ? answer.known : undefined);
      this.pending.delete(answer.id);
    });
    const ended = (reason: string): void => {
      // After close(), or a newer thread's start, this one's requests are settled already.
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (reason !== '') this.onError(`quick plan thread: ${reason}`);
      this.settleAll();
    };
    worker.on('error', (err) => ended(err.message));
    worker.on('exit', () => ended(''));
    this.worker = worker;
    return worker;
  }

  private settleAll(): void {
    for (const resolve of this.pending.values()) resolve(undefined);
    this.pending.clear();
  }
}
