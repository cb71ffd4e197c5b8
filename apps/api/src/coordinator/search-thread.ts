import { Worker } from 'node:worker_threads';

import { threadExecArgv } from '@satfarm/engine';

/** Work for the search thread (`search.thread.ts`) on one job's instance, as the client sent it. */
export type SearchTask =
  | {
      kind: 'quick-plan';
      game: string;
      instance: unknown;
      max: number;
      /** Epoch ms past which the search gives up (the job's deadline). */
      deadline?: number;
      /** What the game's bound search found (`GameDefinition.searchedBound`), adopted first. */
      bound?: unknown;
    }
  | { kind: 'bound'; game: string; instance: unknown };

export type SearchRequest = SearchTask & { id: number };

/** What a task gave (undefined: nothing found), or why it failed. */
export type SearchOutcome = { value?: unknown } | { error: string };

/** The thread's answer to request `id`. */
export type SearchAnswer = SearchOutcome & { id: number };

/**
 * One worker thread that runs games' searches, so that a coordinator keeps answering HTTP and
 * reports meanwhile. It starts with the first task and does not keep the process alive; tasks are
 * served in order. A failed task, or the thread's end (e.g. past `heapMiB`), answers with the
 * reason, which `onError` also gets, prefixed with the thread's `name`; the next task starts a
 * new thread.
 */
export class SearchThread {
  private worker?: Worker;
  private nextId = 0;
  private readonly pending = new Map<number, (outcome: SearchOutcome) => void>();

  constructor(
    private readonly name: string,
    private readonly readableFiles: readonly string[],
    private readonly onError: (message: string) => void,
    private readonly heapMiB?: number,
  ) {}

  run(task: SearchTask): Promise<SearchOutcome> {
    const worker = this.thread();
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      worker.postMessage({ ...task, id } satisfies SearchRequest);
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
    const worker = new Worker(new URL('./search.thread.js', import.meta.url), {
      workerData: { readableFiles: [...this.readableFiles] },
      execArgv: threadExecArgv(),
      // Past it the thread ends (ERR_WORKER_OUT_OF_MEMORY) and its tasks fail; the process lives.
      ...(this.heapMiB === undefined ? {} : { resourceLimits: { maxOldGenerationSizeMb: this.heapMiB } }),
    });
    worker.unref();
    worker.on('message', (answer: SearchAnswer) => {
      const { id, ...outcome } = answer;
      if ('error' in outcome) this.onError(`${this.name}: ${outcome.error}`);
      this.pending.get(id)?.(outcome);
      this.pending.delete(id);
    });
    const ended = (reason: string): void => {
      // After close(), or a newer thread's start, this one's tasks are settled already.
      if (this.worker !== worker) return;
      this.worker = undefined;
      if (reason !== '') this.onError(`${this.name} thread: ${reason}`);
      this.settleAll(`the ${this.name} thread stopped${reason === '' ? '' : `: ${reason}`}`);
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
