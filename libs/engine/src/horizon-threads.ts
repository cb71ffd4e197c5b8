import { Worker } from 'node:worker_threads';

import type { LaunchMode, ResourceLimits, SolverName, SolverProgress } from '@satfarm/solver';

import { deserializeRunError, type SerializedRunError } from './run-error.js';
import type { HorizonRun, HorizonRunResult } from './run-horizon.js';
import type { FormulaSize } from './solve-report.js';
import { threadExecArgv } from './thread-exec-argv.js';

/** How a pool's threads run their horizons. */
export interface HorizonThreadPoolOptions {
  /** Threads, one horizon each at a time: a worker's solver slots. */
  size: number;
  /** A module exporting `lookup` (`importGameLookup`); the registry when unset. */
  gamesModule?: string;
  /** Limits of every solver process (none by default). */
  solverLimits?: ResourceLimits;
  /** How solver processes start (the spawn host by default). */
  solverLaunch?: LaunchMode;
}

/** One horizon for a thread: the game and instance by value, since a thread shares no objects. */
export interface HorizonTask {
  game: string;
  /** The instance as the game parses it (JSON, or text). */
  instance: unknown;
  /** Instances are parsed once per key in each thread (a job's id). */
  instanceKey: string;
  /**
   * `instance` is already the game's parsed form (a split horizon's cube, `HorizonCube.instance`,
   * which the game's parser may not take back): the thread uses it as it is.
   */
  parsed?: true;
  solver: SolverName;
  /** A thread's clock is its own: time goes as `timeoutMs`, never as a `buildDeadline`. */
  run: Omit<HorizonRun, 'buildDeadline'>;
}

/** A horizon's result from a thread: all but the model, which stays there. */
export type HorizonTaskResult = WithoutModel<HorizonRunResult<unknown>>;
type WithoutModel<T> = T extends unknown ? Omit<T, 'model'> : never;

/** A solver's progress line in a thread, with its formula's size and the solver's name. */
export type HorizonTaskProgress = SolverProgress & FormulaSize & { solver: string };

/** What a thread starts with. */
export interface HorizonThreadData extends Omit<HorizonThreadPoolOptions, 'size'> {
  /** One Int32, set to 1 to stop the build in progress (a build holds the thread's event loop). */
  stop: SharedArrayBuffer;
}

/** To a thread: run a task, or abort the one with this id. */
export type HorizonThreadRequest =
  ({ kind: 'run'; id: number } & HorizonTask) | { kind: 'abort'; id: number };

/** From a thread. */
export type HorizonThreadReply =
  | { kind: 'ready' }
  | { kind: 'progress'; id: number; progress: HorizonTaskProgress }
  | { kind: 'done'; id: number; result: HorizonTaskResult }
  | { kind: 'failed'; id: number; error: SerializedRunError };

interface Running {
  id: number;
  resolve: (result: HorizonTaskResult) => void;
  reject: (err: Error) => void;
  onProgress?: (progress: HorizonTaskProgress) => void;
}

interface Slot {
  thread: Worker;
  stop: Int32Array;
  ready: Promise<void>;
  /** Ready once: a thread that never was is not replaced, or a broken games module would loop. */
  started: boolean;
  running?: Running;
}

/**
 * Runs horizons in worker threads, one a thread at a time, so that a formula build (synchronous,
 * seconds for a large one) never holds the caller's event loop: its timers, lock renewals and
 * cancel listener keep going. An abort reaches the thread twice: as a flag the build reads as it
 * grows, and as a message that kills the solver. A thread that dies fails its horizon with an
 * error (a retry may fix it) and is replaced; its solvers die with its spawn host's channel.
 */
export class HorizonThreadPool {
  private readonly slots: Slot[] = [];
  /** Slots taken by a `run`, from the choice of the slot until its result. */
  private readonly claimed = new Set<Slot>();
  private readonly waiting: Array<(slot: Slot | undefined) => void> = [];
  private nextId = 0;
  private closing = false;

  constructor(private readonly options: HorizonThreadPoolOptions) {
    if (!Number.isInteger(options.size) || options.size < 1)
      throw new RangeError(`thread count must be a positive integer, got ${options.size}`);
  }

  /** Starts the threads; rejects when one cannot start (e.g. its games module fails to load). */
  async start(): Promise<void> {
    for (let i = 0; i < this.options.size; i++) this.slots.push(this.startSlot());
    await Promise.all(this.slots.map((slot) => slot.ready));
  }

  /** Horizons running now. */
  get busy(): number {
    return this.claimed.size;
  }

  /**
   * Runs `task` on the next free thread. Aborting `signal` stops its build or kills its solver;
   * the result is then `cancelled`. Rejects with the run's own error class (`VerificationError`,
   * `InputError`) or, when the thread died, a plain error.
   */
  async run(
    task: HorizonTask,
    signal?: AbortSignal,
    onProgress?: (progress: HorizonTaskProgress) => void,
  ): Promise<HorizonTaskResult> {
    const slot = await this.freeSlot();
    const id = ++this.nextId;
    const stopNow = (): void => {
      Atomics.store(slot.stop, 0, 1);
      slot.thread.postMessage({ kind: 'abort', id } satisfies HorizonThreadRequest);
    };
    try {
      return await new Promise<HorizonTaskResult>((resolve, reject) => {
        slot.running = { id, resolve, reject, ...(onProgress === undefined ? {} : { onProgress }) };
        Atomics.store(slot.stop, 0, signal?.aborted ? 1 : 0);
        slot.thread.postMessage({ kind: 'run', id, ...task } satisfies HorizonThreadRequest);
        signal?.addEventListener('abort', stopNow, { once: true });
      });
    } finally {
      signal?.removeEventListener('abort', stopNow);
      if (slot.running?.id === id) slot.running = undefined;
      this.release(slot);
    }
  }

  /** Stops every thread; a horizon still running fails, and its solver dies with its thread. */
  async close(): Promise<void> {
    this.closing = true;
    for (const waiter of this.waiting.splice(0)) waiter(undefined);
    await Promise.all(this.slots.map((slot) => slot.thread.terminate()));
  }

  private startSlot(): Slot {
    const stop = new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT);
    const { size: _size, ...rest } = this.options;
    const thread = new Worker(new URL('./horizon.thread.js', import.meta.url), {
      workerData: { ...rest, stop } satisfies HorizonThreadData,
      execArgv: threadExecArgv(),
    });
    let failure: Error | undefined;
    let markReady: () => void = () => undefined;
    let failStart: (err: Error) => void = () => undefined;
    const slot: Slot = {
      thread,
      stop: new Int32Array(stop),
      ready: new Promise<void>((resolve, reject) => {
        markReady = resolve;
        failStart = reject;
      }),
      started: false,
    };
    // Settled by start() or by the run that waits on it; a replacement's failure is its exit's.
    slot.ready.catch(() => undefined);
    thread.on('message', (reply: HorizonThreadReply) => {
      if (reply.kind === 'ready') {
        slot.started = true;
        return markReady();
      }
      const running = slot.running;
      if (running === undefined || running.id !== reply.id) return;
      if (reply.kind === 'progress') running.onProgress?.(reply.progress);
      else if (reply.kind === 'done') running.resolve(reply.result);
      else running.reject(deserializeRunError(reply.error));
    });
    thread.on('error', (err) => (failure = err));
    thread.on('exit', (code) => {
      const why = new Error(
        this.closing
          ? 'the horizon threads were closed'
          : `the horizon thread stopped (code ${code})${failure === undefined ? '' : `: ${failure.message}`}`,
      );
      failStart(why);
      slot.running?.reject(why);
      slot.running = undefined;
      if (this.closing || !slot.started) return;
      const replacement = this.startSlot();
      this.slots[this.slots.indexOf(slot)] = replacement;
      replacement.ready.then(
        () => {
          if (!this.claimed.has(replacement)) this.handOver(replacement);
        },
        () => undefined,
      );
    });
    return slot;
  }

  private async freeSlot(): Promise<Slot> {
    if (this.closing) throw new Error('the horizon threads were closed');
    const slot = this.slots.find((s) => s.started && !this.claimed.has(s));
    if (slot !== undefined) {
      this.claimed.add(slot);
      return slot;
    }
    const handed = await new Promise<Slot | undefined>((resolve) => this.waiting.push(resolve));
    if (handed === undefined) throw new Error('the horizon threads were closed');
    return handed;
  }

  private release(slot: Slot): void {
    this.claimed.delete(slot);
    // A dead thread's slot has a replacement, which hands itself over once it is ready.
    if (this.slots.includes(slot)) this.handOver(slot);
  }

  /** Gives a free slot to the longest-waiting run, if any. */
  private handOver(slot: Slot): void {
    const next = this.waiting.shift();
    if (next === undefined) return;
    this.claimed.add(slot);
    next(slot);
  }
}
