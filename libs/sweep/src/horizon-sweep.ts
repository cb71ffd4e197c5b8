import type { HorizonPolicy } from './horizon-policy.js';
import {
  type HorizonState,
  horizonRecord,
  initSweepState,
  inFlightHorizons,
  markCancelled,
  markStarted,
  nextRuns,
  recordResult,
  type SweepBounds,
  sweepBounds,
  type SweepState,
  sweepStatus,
} from './sweep-state.js';

/** The longest delay `setTimeout` takes (2^31 - 1 ms, about 24.8 days); longer timers are cut to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Optional figures a runner attaches to an outcome; passed through on `horizon` events. */
export interface OutcomeStats {
  stats?: Record<string, unknown>;
}

/**
 * A runner's answer for one horizon. `planLength` is the number of steps the plan really uses when
 * it reaches the goal before `t`; the sweep then bounds the optimum by it.
 */
export type HorizonOutcome<P> =
  | ({ result: 'sat'; plan: P; planLength?: number } & OutcomeStats)
  | ({ result: 'unsat' } & OutcomeStats)
  | ({ result: 'unknown'; reason?: string } & OutcomeStats);

/** The sweep's bounds when a horizon starts. */
export interface HorizonStartBounds {
  lower: number;
  upper?: number;
}

/**
 * The port the sweep drives: solve horizon `t` (`bounds`: the bounds as it starts). The run must
 * stop soon after `signal` aborts (by resolving with anything or rejecting); the sweep then
 * ignores its outcome. A rejection of a run that was not aborted fails the whole sweep.
 */
export interface HorizonRunner<P> {
  run(t: number, signal: AbortSignal, bounds: HorizonStartBounds): Promise<HorizonOutcome<P>>;
}

/** Progress of a sweep: a horizon changed state, or the bounds moved. */
export type SweepEvent =
  | {
      type: 'horizon';
      t: number;
      state: Exclude<HorizonState, 'queued'>;
      ms: number;
      stats?: Record<string, unknown>;
    }
  | { type: 'bounds'; lower: number; upper?: number };

/** One horizon in a sweep's result. */
export interface SweepHorizonLine {
  t: number;
  result: 'sat' | 'unsat' | 'unknown' | 'cancelled';
  /** The last run's time. */
  ms: number;
  /** How many times the horizon ran, when more than once (it gave way, then ran again). */
  runs?: number;
  /** Why an unknown horizon has no answer, when its run said. */
  reason?: string;
  /** What gave the answer when no solver run did (a known plan, see `HorizonSweepOptions.knownPlan`). */
  by?: string;
}

/**
 * How a sweep ended: `optimal` (`lower == upper`, with the plan), `unsatisfiable` (no plan within
 * `max`), `unknown` (undecided: a timeout, or only `unknown` horizons left; a plan, when present,
 * is the best found and its optimality unproven), `cancelled` (the caller's signal aborted; with
 * the best plan found, if any).
 */
export interface SweepResult<P> {
  status: 'optimal' | 'unsatisfiable' | 'unknown' | 'cancelled';
  bounds: SweepBounds;
  plan?: P;
  /** Length of `plan`. */
  horizon?: number;
  /** Every horizon run, by `t`. */
  horizons: SweepHorizonLine[];
}

/** A plan the caller found before the sweep, e.g. by a heuristic search, and verified. */
export interface KnownPlan<P> {
  plan: P;
  /** Its number of steps. */
  length: number;
  /** What found it, reported as the answer's source (`SweepHorizonLine.by`). */
  by: string;
  /** How long finding it took. */
  ms?: number;
}

export interface HorizonSweepOptions<P = unknown> {
  /** Admissible lower bound: no plan is shorter. */
  lower: number;
  /** Largest horizon to try. */
  max: number;
  /** Horizons in flight at once. */
  parallelism: number;
  /** How horizons are chosen (`HORIZON_POLICIES` has the ones a user may name). */
  policy: HorizonPolicy;
  /** Stop after this long and answer with what is known. */
  timeoutMs?: number;
  /**
   * How long a patient probe of the policy may run before it gives way (see `HorizonRun`); no
   * horizon has a limit when absent.
   */
  patienceMs?: number;
  /** A caller's claim that no plan is shorter, checked and never trusted (see `SweepInit.hint`). */
  hint?: number;
  /**
   * A plan found before the sweep (verified by the caller): recorded as a SAT answer at its length
   * before any run starts, so the sweep only looks below it, and reported if nothing shorter is
   * found. Its length must lie within `max`; one shorter than `lower` contradicts the bound.
   */
  knownPlan?: KnownPlan<P>;
  /** Clock in ms for the horizons' run times (default `performance.now`). */
  now?: () => number;
  /** Calls `callback` after `ms`; returns a function that clears it (default `setTimeout`). */
  setTimer?: (callback: () => void, ms: number) => () => void;
}

export interface SweepRunOptions {
  signal?: AbortSignal;
  onEvent?: (event: SweepEvent) => void;
}

/**
 * The in-process horizon sweep (docs/cli.md#the-horizon-sweep): keeps `parallelism` horizons
 * running through a `HorizonRunner` and aborts a run once another answer dominates it. `run`
 * settles only after every run it started has, so no work outlives it: a timeout or the signal
 * resolves with the best plan and bounds reached, a failed run (or a throwing `onEvent`) rejects.
 */
export class HorizonSweep<P> {
  private readonly policy: HorizonPolicy;
  private readonly initial: SweepState;

  constructor(private readonly options: HorizonSweepOptions<P>) {
    this.policy = options.policy;
    this.initial = initSweepState({
      lower: options.lower,
      max: options.max,
      parallelism: options.parallelism,
      policy: this.policy,
      ...(options.patienceMs === undefined ? {} : { patienceMs: options.patienceMs }),
      ...(options.hint === undefined ? {} : { hint: options.hint }),
    });
    const timeout = options.timeoutMs;
    if (timeout !== undefined && !(Number.isFinite(timeout) && timeout >= 0)) {
      throw new RangeError(`timeoutMs: expected a non-negative number, got ${timeout}`);
    }
    const known = options.knownPlan;
    if (
      known !== undefined &&
      !(Number.isInteger(known.length) && known.length >= 0 && known.length <= options.max)
    ) {
      throw new RangeError(
        `knownPlan.length: expected an integer from 0 to max ${options.max}, got ${known.length}`,
      );
    }
  }

  /**
   * Runs one sweep from the initial bounds (each call starts afresh). Events: `horizon` when a run
   * starts (`running`), answers, or is cancelled (a failed run ends `cancelled` too), and `bounds`
   * whenever `lower` or `upper` moves.
   */
  run(runner: HorizonRunner<P>, options: SweepRunOptions = {}): Promise<SweepResult<P>> {
    return new SweepRun(this.initial, this.policy, runner, this.options, options).execute();
  }
}

/** A run's end; `run` is the run's controller, since a horizon that gave way may run again. */
type Completion<P> = { t: number; run: AbortController } & (
  { outcome: HorizonOutcome<P> } | { error: unknown }
);

class SweepRun<P> {
  private readonly now: () => number;
  private readonly controllers = new Map<number, AbortController>();
  /** Clears the patience timer of each limited run in flight. */
  private readonly limits = new Map<number, () => void>();
  private readonly settled: Promise<void>[] = [];
  private readonly inbox: Completion<P>[] = [];
  private wake: (() => void) | undefined;
  private stop: 'timeout' | 'aborted' | undefined;
  private failure: { error: unknown } | undefined;
  private best: { plan: P; length: number } | undefined;

  constructor(
    private state: SweepState,
    private readonly policy: HorizonPolicy,
    private readonly runner: HorizonRunner<P>,
    private readonly sweep: HorizonSweepOptions<P>,
    private readonly options: SweepRunOptions,
  ) {
    this.now = sweep.now ?? (() => performance.now());
  }

  async execute(): Promise<SweepResult<P>> {
    const signal = this.options.signal;
    const onAbort = (): void => this.halt('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    if (signal?.aborted) this.halt('aborted');
    const timeoutMs = this.sweep.timeoutMs;
    const deadline = timeoutMs === undefined ? undefined : this.now() + timeoutMs;
    const clearTimer =
      timeoutMs === undefined ? undefined : this.startTimer(() => this.halt('timeout'), timeoutMs);
    try {
      if (this.sweep.knownPlan !== undefined) this.applyKnown(this.sweep.knownPlan);
      for (;;) {
        this.drainInbox();
        // The timer alone is not enough: a run that held the event loop past the deadline (a
        // formula build) settles before the timer's turn comes, and the next run would start.
        if (deadline !== undefined && this.now() >= deadline) this.halt('timeout');
        if (this.failure !== undefined || this.stop !== undefined || sweepStatus(this.state) !== 'running')
          break;
        for (const { t, limitMs } of nextRuns(this.state, this.policy)) this.start(t, limitMs);
        if (inFlightHorizons(this.state).length === 0) {
          throw new Error(`horizon policy "${this.policy.name}" started nothing while the sweep is open`);
        }
        await this.nextCompletion();
      }
    } catch (error) {
      this.failure ??= { error };
    } finally {
      clearTimer?.();
      signal?.removeEventListener('abort', onAbort);
      this.cancelInFlight();
      await Promise.all(this.settled);
    }
    if (this.failure !== undefined) throw this.failure.error;
    return this.result();
  }

  private start(t: number, limitMs: number | undefined): void {
    this.state = markStarted(this.state, t, this.now(), limitMs);
    const controller = new AbortController();
    this.controllers.set(t, controller);
    if (limitMs !== undefined) {
      this.limits.set(
        t,
        this.startTimer(
          () => this.deliver({ t, run: controller, outcome: { result: 'unknown', reason: 'patience' } }),
          limitMs,
        ),
      );
    }
    this.emit({ type: 'horizon', t, state: 'running', ms: 0 });
    const bounds =
      this.state.upper === undefined
        ? { lower: this.state.lower }
        : { lower: this.state.lower, upper: this.state.upper };
    const run = (async () => this.runner.run(t, controller.signal, bounds))().then(
      (outcome) => this.deliver({ t, run: controller, outcome }),
      (error: unknown) => this.deliver({ t, run: controller, error }),
    );
    this.settled.push(run);
  }

  private deliver(completion: Completion<P>): void {
    this.inbox.push(completion);
    this.notify();
  }

  private halt(reason: 'timeout' | 'aborted'): void {
    this.stop ??= reason;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  private nextCompletion(): Promise<void> {
    if (this.inbox.length > 0 || this.stop !== undefined) return Promise.resolve();
    return new Promise((resolve) => (this.wake = resolve));
  }

  private drainInbox(): void {
    for (let c = this.inbox.shift(); c !== undefined; c = this.inbox.shift()) {
      // Only the current run of a horizon counts: an earlier one that gave way settles late.
      if (this.controllers.get(c.t) !== c.run) continue;
      this.controllers.delete(c.t);
      this.clearLimit(c.t);
      if (c.run.signal.aborted || this.failure !== undefined) continue;
      // A run that outlived its patience is stopped here; its own late outcome is then ignored.
      if ('outcome' in c && c.outcome.result === 'unknown') c.run.abort();
      if ('error' in c) this.failure = { error: c.error };
      else this.apply(c.t, c.outcome);
    }
  }

  private apply(t: number, outcome: HorizonOutcome<P>): void {
    const at = this.now();
    const recorded = recordResult(this.state, t, outcome.result, {
      at,
      ...(outcome.result === 'sat' && outcome.planLength !== undefined
        ? { planLength: outcome.planLength }
        : {}),
      ...(outcome.result === 'unknown' && outcome.reason !== undefined ? { reason: outcome.reason } : {}),
    });
    this.state = recorded.state;
    const record = horizonRecord(this.state, t);
    if (outcome.result === 'sat') {
      const length = record?.planLength ?? t;
      if (this.best === undefined || length < this.best.length) this.best = { plan: outcome.plan, length };
    }
    this.emit({
      type: 'horizon',
      t,
      state: recorded.gaveWay ? 'cancelled' : outcome.result,
      ms: record?.ms ?? 0,
      ...(outcome.stats === undefined ? {} : { stats: outcome.stats }),
    });
    if (recorded.boundsChanged) this.emit({ type: 'bounds', ...sweepBounds(this.state) });
    for (const c of recorded.cancel) this.abort(c);
  }

  /** Records a plan found before the sweep as its length's SAT answer. */
  private applyKnown(known: KnownPlan<P>): void {
    const recorded = recordResult(this.state, known.length, 'sat', { ms: known.ms ?? 0, by: known.by });
    this.state = recorded.state;
    this.best = { plan: known.plan, length: known.length };
    this.emit({ type: 'horizon', t: known.length, state: 'sat', ms: known.ms ?? 0 });
    if (recorded.boundsChanged) this.emit({ type: 'bounds', ...sweepBounds(this.state) });
  }

  private cancelInFlight(): void {
    const at = this.now();
    for (const t of inFlightHorizons(this.state)) {
      this.state = markCancelled(this.state, t, at);
      this.abort(t);
    }
  }

  private clearLimit(t: number): void {
    this.limits.get(t)?.();
    this.limits.delete(t);
  }

  private abort(t: number): void {
    this.clearLimit(t);
    this.controllers.get(t)?.abort();
    this.emit({ type: 'horizon', t, state: 'cancelled', ms: horizonRecord(this.state, t)?.ms ?? 0 });
  }

  private emit(event: SweepEvent): void {
    try {
      this.options.onEvent?.(event);
    } catch (error) {
      this.failure ??= { error };
      this.notify();
    }
  }

  private startTimer(callback: () => void, ms: number): () => void {
    if (this.sweep.setTimer !== undefined) return this.sweep.setTimer(callback, ms);
    // setTimeout fires at once for a delay above its range (TimeoutOverflowWarning), which would
    // end a sweep given a long timeout, or a patience doubled many times, at the start.
    const timer = setTimeout(callback, Math.min(ms, MAX_TIMER_MS));
    return () => clearTimeout(timer);
  }

  private result(): SweepResult<P> {
    const status = sweepStatus(this.state);
    const horizons = this.state.horizons.flatMap((h): SweepHorizonLine[] =>
      h.state === 'queued' || h.state === 'running'
        ? []
        : [
            {
              t: h.t,
              result: h.state,
              ms: h.ms ?? 0,
              ...(h.run === undefined ? {} : { runs: h.run }),
              ...(h.state === 'unknown' && h.reason !== undefined ? { reason: h.reason } : {}),
              ...(h.by === undefined ? {} : { by: h.by }),
            },
          ],
    );
    return {
      status:
        status === 'optimal' || status === 'unsatisfiable'
          ? status
          : this.stop === 'aborted'
            ? 'cancelled'
            : 'unknown',
      bounds: sweepBounds(this.state),
      ...(this.best === undefined ? {} : { plan: this.best.plan, horizon: this.best.length }),
      horizons,
    };
  }
}
