import type { HorizonOutcome, HorizonRunner, HorizonStartBounds } from '../horizon-sweep.js';

/** A scripted plan: which horizon produced it and how many steps it uses. */
export interface ScriptedPlan {
  t: number;
  length: number;
}

/**
 * The scripted answer for one horizon: the result after `ms`, or a rejection with `fail`. An
 * aborted run settles `abortMs` after the abort (default 0): it resolves `unknown`, or rejects with
 * the signal's reason when `rejectOnAbort` is set (both are what real runners do).
 */
export interface ScriptedAnswer {
  result: 'sat' | 'unsat' | 'unknown' | 'fail';
  ms: number;
  planLength?: number;
  fail?: Error;
  abortMs?: number;
  rejectOnAbort?: boolean;
}

/** One run as the runner saw it, times from `Date.now()` (fake timers in the specs). */
export interface ScriptedRun {
  t: number;
  startedAt: number;
  /** The sweep's bounds when the run started. */
  bounds: HorizonStartBounds;
  abortedAt?: number;
  settledAt?: number;
}

/**
 * A horizon runner that answers from a script after delays on the (fake) timers: the one place a
 * fake solver belongs, to drive the sweep through exact interleavings. It records every run and
 * counts concurrent copies of each horizon and runs not settled yet.
 */
export class ScriptedHorizonRunner implements HorizonRunner<ScriptedPlan> {
  readonly runs: ScriptedRun[] = [];
  /** Largest number of simultaneous runs of any one horizon. */
  maxCopies = 0;
  /** Largest number of runs in flight and not aborted at once. */
  maxLive = 0;
  private readonly copies = new Map<number, number>();
  private live = 0;
  private unsettled = 0;

  constructor(private readonly script: (t: number) => ScriptedAnswer) {}

  /** Runs whose promise has not settled. */
  get pending(): number {
    return this.unsettled;
  }

  /** Horizons in the order they were started. */
  get started(): number[] {
    return this.runs.map((r) => r.t);
  }

  /** Aborted horizons with the time of the abort. */
  get aborted(): { t: number; at: number }[] {
    return this.runs.flatMap((r) => (r.abortedAt === undefined ? [] : [{ t: r.t, at: r.abortedAt }]));
  }

  /** The bounds each horizon was started with, in start order. */
  get startBounds(): { t: number; bounds: HorizonStartBounds }[] {
    return this.runs.map((r) => ({ t: r.t, bounds: r.bounds }));
  }

  run(t: number, signal: AbortSignal, bounds: HorizonStartBounds): Promise<HorizonOutcome<ScriptedPlan>> {
    const answer = this.script(t);
    const record: ScriptedRun = { t, startedAt: Date.now(), bounds };
    this.runs.push(record);
    this.copies.set(t, (this.copies.get(t) ?? 0) + 1);
    this.maxCopies = Math.max(this.maxCopies, this.copies.get(t) ?? 0);
    this.unsettled++;
    this.live++;
    this.maxLive = Math.max(this.maxLive, this.live);
    return new Promise((resolve, reject) => {
      const settle = (): void => {
        record.settledAt = Date.now();
        this.copies.set(t, (this.copies.get(t) ?? 1) - 1);
        this.unsettled--;
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        this.live--;
        settle();
        if (answer.result === 'fail') reject(answer.fail ?? new Error(`scripted failure at ${t}`));
        else if (answer.result === 'sat')
          resolve({
            result: 'sat',
            plan: { t, length: answer.planLength ?? t },
            planLength: answer.planLength,
          });
        else resolve({ result: answer.result, stats: { t } });
      }, answer.ms);
      const onAbort = (): void => {
        clearTimeout(timer);
        record.abortedAt = Date.now();
        this.live--;
        setTimeout(() => {
          settle();
          if (answer.rejectOnAbort)
            reject(signal.reason instanceof Error ? signal.reason : new Error(`aborted ${t}`));
          else resolve({ result: 'unknown', reason: 'cancelled' });
        }, answer.abortMs ?? 0);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }
}

/**
 * A monotone instance: UNSAT below `optimum`, SAT from it up (the plan uses `planLength(t)` steps,
 * default `t`), with run times per horizon.
 */
export function monotoneScript(options: {
  optimum: number;
  ms: (t: number) => number;
  planLength?: (t: number) => number;
  abortMs?: (t: number) => number;
  rejectOnAbort?: boolean;
}): (t: number) => ScriptedAnswer {
  return (t) => ({
    result: t >= options.optimum ? 'sat' : 'unsat',
    ms: options.ms(t),
    ...(t >= options.optimum && options.planLength ? { planLength: options.planLength(t) } : {}),
    ...(options.abortMs ? { abortMs: options.abortMs(t) } : {}),
    ...(options.rejectOnAbort ? { rejectOnAbort: true } : {}),
  });
}
