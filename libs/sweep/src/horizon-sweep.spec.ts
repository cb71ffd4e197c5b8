import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { bracketPolicy } from './bracket.policy.js';
import { consecutivePolicy } from './consecutive.policy.js';
import {
  HorizonSweep,
  type HorizonSweepOptions,
  type SweepEvent,
  type SweepResult,
} from './horizon-sweep.js';
import { probePolicy } from './probe.policy.js';
import { ContradictoryResultError } from './sweep.error.js';
import {
  monotoneScript,
  type ScriptedAnswer,
  ScriptedHorizonRunner,
  type ScriptedPlan,
} from './testing/scripted-horizon.runner.js';

type Timed<E> = E & { at: number };

interface Outcome {
  result?: SweepResult<ScriptedPlan>;
  error?: unknown;
  /** Runner promises not settled when `run` settled. */
  pendingAtEnd: number;
  endedAt: number;
  runner: ScriptedHorizonRunner;
  events: Timed<SweepEvent>[];
}

async function sweep(
  options: Omit<HorizonSweepOptions<ScriptedPlan>, 'now'>,
  script: (t: number) => ScriptedAnswer,
  signal?: AbortSignal,
): Promise<Outcome> {
  const runner = new ScriptedHorizonRunner(script);
  const events: Timed<SweepEvent>[] = [];
  const sut = new HorizonSweep<ScriptedPlan>({ ...options, now: () => Date.now() });
  const settled = sut.run(runner, { signal, onEvent: (e) => events.push({ ...e, at: Date.now() }) }).then(
    (result) => ({ result, pendingAtEnd: runner.pending, endedAt: Date.now() }),
    (error: unknown) => ({ error, pendingAtEnd: runner.pending, endedAt: Date.now() }),
  );
  await vi.runAllTimersAsync();
  return { ...(await settled), runner, events };
}

function cancelledAt(events: Timed<SweepEvent>[]): { t: number; at: number }[] {
  return events.flatMap((e) =>
    e.type === 'horizon' && e.state === 'cancelled' ? [{ t: e.t, at: e.at }] : [],
  );
}

function firstUpperAt(events: Timed<SweepEvent>[]): number | undefined {
  return events.find((e) => e.type === 'bounds' && e.upper !== undefined)?.at;
}

const tenMsPerStep = (t: number): number => 10 * t;

describe(HorizonSweep.name, () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('ends optimal at the lower bound when its first horizon is SAT', async () => {
    const { result, runner, events } = await sweep(
      { lower: 4, max: 10, parallelism: 2, policy: consecutivePolicy },
      monotoneScript({ optimum: 4, ms: tenMsPerStep }),
    );
    expect(result).toEqual({
      status: 'optimal',
      bounds: { lower: 4, upper: 4 },
      plan: { t: 4, length: 4 },
      horizon: 4,
      horizons: [
        { t: 4, result: 'sat', ms: 40 },
        { t: 5, result: 'cancelled', ms: 40 },
      ],
    });
    expect(runner.started).toEqual([4, 5]);
    expect(cancelledAt(events)).toEqual([{ t: 5, at: 40 }]);
  });

  it.each([
    { parallelism: 1, started: [2, 3, 4, 5, 6], cancelled: [], endedAt: 200 },
    { parallelism: 2, started: [2, 3, 4, 5, 6, 7], cancelled: [{ t: 7, at: 120 }], endedAt: 120 },
    {
      parallelism: 4,
      started: [2, 3, 4, 5, 6, 7, 8, 9],
      cancelled: [
        { t: 7, at: 80 },
        { t: 8, at: 80 },
        { t: 9, at: 80 },
      ],
      endedAt: 80,
    },
  ])(
    'climbs to an optimum four steps up with parallelism $parallelism',
    async ({ parallelism, started, cancelled, endedAt }) => {
      const out = await sweep(
        { lower: 2, max: 12, parallelism, policy: consecutivePolicy },
        monotoneScript({ optimum: 6, ms: tenMsPerStep }),
      );
      expect(out.result?.status).toBe('optimal');
      expect(out.result?.bounds).toEqual({ lower: 6, upper: 6 });
      expect(out.result?.plan).toEqual({ t: 6, length: 6 });
      expect(out.runner.started).toEqual(started);
      expect(cancelledAt(out.events)).toEqual(cancelled);
      expect(out.result?.horizons.filter((h) => h.result === 'unsat').map((h) => h.t)).toEqual([2, 3, 4, 5]);
      expect(out.endedAt).toBe(endedAt);
      expect(out.runner.maxLive).toBeLessThanOrEqual(parallelism);
    },
  );

  it('cancels the horizons above an early SAT while the ones below keep running', async () => {
    const script = (t: number): ScriptedAnswer =>
      t === 1 ? { result: 'unsat', ms: 50 } : { result: 'sat', ms: t === 2 ? 5 : 100 };
    const { result, runner, events } = await sweep(
      { lower: 1, max: 10, parallelism: 4, policy: consecutivePolicy },
      script,
    );
    expect(runner.started).toEqual([1, 2, 3, 4]);
    expect(cancelledAt(events)).toEqual([
      { t: 3, at: 5 },
      { t: 4, at: 5 },
    ]);
    expect(events.filter((e) => e.type === 'bounds')).toEqual([
      { type: 'bounds', lower: 1, upper: 2, at: 5 },
      { type: 'bounds', lower: 2, upper: 2, at: 50 },
    ]);
    expect(result?.status).toBe('optimal');
    expect(result?.horizon).toBe(2);
  });

  it('tells each run the bounds as they stand when it starts', async () => {
    const script = (t: number): ScriptedAnswer =>
      t === 1 ? { result: 'unsat', ms: 50 } : { result: 'sat', ms: t === 2 ? 5 : 100 };
    const { runner } = await sweep({ lower: 1, max: 10, parallelism: 2, policy: consecutivePolicy }, script);
    expect(runner.startBounds).toEqual([
      { t: 1, bounds: { lower: 1 } },
      { t: 2, bounds: { lower: 1 } },
    ]);
    const later = await sweep(
      { lower: 2, max: 12, parallelism: 1, policy: consecutivePolicy },
      monotoneScript({ optimum: 4, ms: tenMsPerStep }),
    );
    expect(later.runner.startBounds).toEqual([
      { t: 2, bounds: { lower: 2 } },
      { t: 3, bounds: { lower: 3 } },
      { t: 4, bounds: { lower: 4 } },
    ]);
  });

  it('applies UNSAT results that arrive out of order and starts new work without waiting for aborted runs', async () => {
    const ms: Record<number, number> = { 1: 100, 2: 50, 3: 10, 4: 20, 5: 60, 6: 60 };
    const script = (t: number): ScriptedAnswer => ({
      result: t >= 4 ? 'sat' : 'unsat',
      ms: ms[t] ?? 1000,
      abortMs: 15,
    });
    const { result, runner, events, pendingAtEnd, endedAt } = await sweep(
      { lower: 1, max: 10, parallelism: 3, policy: consecutivePolicy },
      script,
    );
    expect(runner.started).toEqual([1, 2, 3, 4, 5, 6]);
    expect(runner.runs.filter((r) => r.t >= 4).map((r) => r.startedAt)).toEqual([10, 10, 10]);
    expect(runner.runs.filter((r) => r.t <= 2).map((r) => r.settledAt)).toEqual([25, 25]);
    expect(cancelledAt(events)).toEqual([
      { t: 1, at: 10 },
      { t: 2, at: 10 },
      { t: 5, at: 30 },
      { t: 6, at: 30 },
    ]);
    expect(result?.bounds).toEqual({ lower: 4, upper: 4 });
    expect(result?.status).toBe('optimal');
    // The sweep was decided at 30 but resolves only once the aborted runs of 5 and 6 settled.
    expect(endedAt).toBe(45);
    expect(pendingAtEnd).toBe(0);
  });

  it('with the probe policy finds an upper bound sooner than consecutive when UNSAT proofs slow down near the optimum', async () => {
    const script = (t: number): ScriptedAnswer =>
      t >= 20 ? { result: 'sat', ms: 5 } : { result: 'unsat', ms: 10 + 5 * t };
    const options = { lower: 1, max: 40, parallelism: 2 };
    const probe = await sweep({ ...options, policy: probePolicy }, script);
    const consecutive = await sweep({ ...options, policy: consecutivePolicy }, script);

    const probeUpperAt = firstUpperAt(probe.events);
    const consecutiveUpperAt = firstUpperAt(consecutive.events);
    const startedBefore = (o: Outcome, at: number | undefined): number[] =>
      o.runner.runs.filter((r) => at !== undefined && r.startedAt < at).map((r) => r.t);
    expect(startedBefore(probe, probeUpperAt)).toEqual([1, 2, 3, 5, 4, 6, 9, 7, 10, 17, 11, 18, 33]);
    expect(startedBefore(consecutive, consecutiveUpperAt)).toEqual([...Array(20).keys()].map((i) => i + 1));
    expect(probeUpperAt).toBeLessThan(consecutiveUpperAt ?? 0);
    expect(probe.result?.status).toBe('optimal');
    expect(consecutive.result?.status).toBe('optimal');
    expect(probe.result?.horizon).toBe(20);
  });

  it('reports unsatisfiable without running anything when the lower bound exceeds max', async () => {
    const { result, runner } = await sweep(
      { lower: 8, max: 7, parallelism: 2, policy: consecutivePolicy },
      () => ({
        result: 'sat',
        ms: 1,
      }),
    );
    expect(result).toEqual({ status: 'unsatisfiable', bounds: { lower: 8 }, horizons: [] });
    expect(runner.started).toEqual([]);
  });

  it('reports unsatisfiable once every horizon up to max is UNSAT', async () => {
    const { result } = await sweep(
      { lower: 1, max: 3, parallelism: 2, policy: probePolicy },
      monotoneScript({ optimum: 9, ms: tenMsPerStep }),
    );
    expect(result?.status).toBe('unsatisfiable');
    expect(result?.bounds).toEqual({ lower: 4 });
    expect(result?.plan).toBeUndefined();
  });

  it('on timeout stops every run and returns the best plan with the bounds reached', async () => {
    const ms: Record<number, number> = { 1: 500, 2: 30, 3: 500, 4: 40 };
    const script = (t: number): ScriptedAnswer => ({ result: t >= 4 ? 'sat' : 'unsat', ms: ms[t] ?? 500 });
    const { result, events, pendingAtEnd, endedAt } = await sweep(
      { lower: 1, max: 10, parallelism: 2, policy: consecutivePolicy, timeoutMs: 100 },
      script,
    );
    expect(result).toEqual({
      status: 'unknown',
      bounds: { lower: 3, upper: 4 },
      plan: { t: 4, length: 4 },
      horizon: 4,
      horizons: [
        { t: 1, result: 'cancelled', ms: 30 },
        { t: 2, result: 'unsat', ms: 30 },
        { t: 3, result: 'cancelled', ms: 70 },
        { t: 4, result: 'sat', ms: 40 },
      ],
    });
    expect(cancelledAt(events)).toEqual([
      { t: 1, at: 30 },
      { t: 3, at: 100 },
    ]);
    expect(endedAt).toBe(100);
    expect(pendingAtEnd).toBe(0);
  });

  it('stops at its deadline when a run held the event loop past it, before the timer could fire', async () => {
    // Each run takes 30 ms of the clock and answers unknown at once, as a formula build that
    // blocks the event loop and stops at the deadline does; the timer's turn never comes.
    const started: number[] = [];
    const blockingRunner = {
      run: (t: number): Promise<{ result: 'unknown'; reason: string }> => {
        started.push(t);
        vi.setSystemTime(Date.now() + 30);
        return Promise.resolve({ result: 'unknown', reason: 'timeout' });
      },
    };
    const result = await new HorizonSweep<ScriptedPlan>({
      lower: 1,
      max: 10,
      parallelism: 1,
      policy: consecutivePolicy,
      timeoutMs: 20,
      now: () => Date.now(),
    }).run(blockingRunner);
    expect(started).toEqual([1]);
    expect(result.status).toBe('unknown');
    expect(result.horizons).toEqual([{ t: 1, result: 'unknown', ms: 30, reason: 'timeout' }]);
  });

  it('runs to the optimum under a timeout or a patience longer than a timer can wait', async () => {
    // Above 2^31 - 1 ms setTimeout fires at once (the fake timers do as Node does).
    const days40 = 40 * 24 * 3600 * 1000;
    for (const limits of [{ timeoutMs: days40 }, { patienceMs: days40 }]) {
      const { result, runner } = await sweep(
        { lower: 0, max: 10, parallelism: 2, policy: bracketPolicy, ...limits },
        monotoneScript({ optimum: 6, ms: tenMsPerStep }),
      );
      expect(result?.status).toBe('optimal');
      expect(result?.bounds).toEqual({ lower: 6, upper: 6 });
      // No probe gave way: each horizon ran once.
      expect(new Set(runner.started).size).toBe(runner.started.length);
    }
  });

  it('on an external abort cancels every run and reports cancelled with the bounds reached', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 35);
    const { result, runner, pendingAtEnd } = await sweep(
      { lower: 1, max: 10, parallelism: 2, policy: consecutivePolicy },
      monotoneScript({ optimum: 8, ms: tenMsPerStep, abortMs: () => 7, rejectOnAbort: true }),
      controller.signal,
    );
    expect(result?.status).toBe('cancelled');
    expect(result?.bounds).toEqual({ lower: 3 });
    expect(result?.plan).toBeUndefined();
    expect(runner.started).toEqual([1, 2, 3, 4]);
    expect(runner.aborted).toEqual([
      { t: 3, at: 35 },
      { t: 4, at: 35 },
    ]);
    expect(result?.horizons.map((h) => [h.t, h.result])).toEqual([
      [1, 'unsat'],
      [2, 'unsat'],
      [3, 'cancelled'],
      [4, 'cancelled'],
    ]);
    expect(pendingAtEnd).toBe(0);
  });

  it('starts nothing when the signal is already aborted', async () => {
    const { result, runner } = await sweep(
      { lower: 1, max: 10, parallelism: 2, policy: consecutivePolicy },
      monotoneScript({ optimum: 3, ms: tenMsPerStep }),
      AbortSignal.abort(),
    );
    expect(result).toEqual({ status: 'cancelled', bounds: { lower: 1 }, horizons: [] });
    expect(runner.started).toEqual([]);
  });

  it('rejects with the error of a failing run after aborting and reaping the others', async () => {
    const failure = new Error('solver crashed');
    const script = (t: number): ScriptedAnswer =>
      t === 2 ? { result: 'fail', ms: 10, fail: failure } : { result: 'unsat', ms: 100, abortMs: 20 };
    const { error, runner, events, pendingAtEnd, endedAt } = await sweep(
      { lower: 1, max: 10, parallelism: 3, policy: consecutivePolicy },
      script,
    );
    expect(error).toBe(failure);
    expect(runner.started).toEqual([1, 2, 3]);
    // The failed horizon ends as cancelled too, so that listeners see no run left open.
    expect(cancelledAt(events)).toEqual([
      { t: 1, at: 10 },
      { t: 2, at: 10 },
      { t: 3, at: 10 },
    ]);
    expect(runner.aborted.map((a) => a.t)).toEqual([1, 3]);
    expect(endedAt).toBe(30);
    expect(pendingAtEnd).toBe(0);
  });

  it('rejects a plan shorter than the admissible lower bound as a contradiction', async () => {
    const { error, pendingAtEnd } = await sweep(
      { lower: 3, max: 10, parallelism: 2, policy: consecutivePolicy },
      (t) => ({
        result: 'sat',
        ms: 10 * t,
        planLength: 2,
      }),
    );
    expect(error).toBeInstanceOf(ContradictoryResultError);
    expect(pendingAtEnd).toBe(0);
  });

  it('tightens the upper bound to the length of a plan that finishes early', async () => {
    const script = (t: number): ScriptedAnswer =>
      t === 3 ? { result: 'unsat', ms: 20 } : { result: 'sat', ms: t === 5 ? 10 : 100, planLength: 4 };
    const { result, runner, events } = await sweep(
      { lower: 3, max: 10, parallelism: 3, policy: consecutivePolicy },
      script,
    );
    expect(runner.started).toEqual([3, 4, 5]);
    expect(cancelledAt(events)).toEqual([{ t: 4, at: 10 }]);
    expect(result?.status).toBe('optimal');
    expect(result?.bounds).toEqual({ lower: 4, upper: 4 });
    expect(result?.horizon).toBe(4);
    expect(result?.plan).toEqual({ t: 5, length: 4 });
  });

  describe('with patience', () => {
    // Optimum 20: UNSAT below, fast up to 11; every horizon from 12 to 29 takes 100 s; from 30 up a
    // plan of length 25 comes in 50 ms.
    const hardNearTheOptimum = (t: number): ScriptedAnswer =>
      t < 12
        ? { result: 'unsat', ms: 10 }
        : t < 20
          ? { result: 'unsat', ms: 100_000 }
          : t < 30
            ? { result: 'sat', ms: 100_000 }
            : { result: 'sat', ms: 50, planLength: 25 };

    it("makes a probe that runs out of time give way to the ladder's next rung, and stops the run", async () => {
      const { result, runner, events } = await sweep(
        { lower: 0, max: 40, parallelism: 2, policy: bracketPolicy, patienceMs: 1000, timeoutMs: 10_000 },
        hardNearTheOptimum,
      );
      // A rung among the hard horizons gave way after 1 s, and was stopped then; a rung above 30
      // found the plan of length 25 in 50 ms, long before the 100 s the hard horizons take.
      const gave = runner.runs.filter(
        (r) => r.t >= 12 && r.t < 30 && r.abortedAt !== undefined && r.abortedAt - r.startedAt === 1000,
      );
      expect(gave.length).toBeGreaterThan(0);
      expect(result?.plan?.length).toBe(25);
      expect(result?.bounds.upper).toBe(25);
      const gaveWay = events.find(
        (e) => e.type === 'horizon' && e.state === 'cancelled' && e.t === gave[0]!.t,
      );
      expect(gaveWay).toBeDefined();
      expect(runner.pending).toBe(0);
    });

    it('without patience the same probe holds its slot until the timeout', async () => {
      const { result, runner } = await sweep(
        { lower: 0, max: 40, parallelism: 2, policy: bracketPolicy, timeoutMs: 10_000 },
        hardNearTheOptimum,
      );
      expect(result?.plan).toBeUndefined();
      expect(runner.started.filter((t) => t >= 30)).toEqual([]);
    });

    it('runs a horizon that gave way again once the climb reaches it, to its answer', async () => {
      // Optimum 12; every horizon from 12 takes 5 s; the patience is 1 s.
      const { result, runner } = await sweep(
        { lower: 0, max: 16, parallelism: 2, policy: bracketPolicy, patienceMs: 1000 },
        monotoneScript({ optimum: 12, ms: (t) => (t >= 12 ? 5000 : 10) }),
      );
      expect(result?.status).toBe('optimal');
      expect(result?.bounds).toEqual({ lower: 12, upper: 12 });
      // 12's SAT came from a run that was not limited (it took 5 s); 11 is the UNSAT below it.
      const twelve = runner.runs.filter((r) => r.t === 12 && r.settledAt !== undefined);
      expect(twelve.some((r) => r.abortedAt === undefined && r.settledAt! - r.startedAt === 5000)).toBe(true);
      // Each run of a horizon that gave way was stopped before the next run of it started.
      for (const t of new Set(runner.started)) {
        const runs = runner.runs.filter((r) => r.t === t);
        runs.slice(1).forEach((r, i) => expect(runs[i]!.abortedAt).toBeLessThanOrEqual(r.startedAt));
      }
    });
  });

  describe('with unknown results', () => {
    it('never retries an unknown horizon and ends unknown with the plan above it', async () => {
      const script = (t: number): ScriptedAnswer => ({ result: t === 1 ? 'unknown' : 'sat', ms: 10 });
      const { result, runner } = await sweep(
        { lower: 1, max: 10, parallelism: 1, policy: consecutivePolicy },
        script,
      );
      expect(runner.started).toEqual([1, 2]);
      expect(result).toEqual({
        status: 'unknown',
        bounds: { lower: 1, upper: 2 },
        plan: { t: 2, length: 2 },
        horizon: 2,
        horizons: [
          { t: 1, result: 'unknown', ms: 10 },
          { t: 2, result: 'sat', ms: 10 },
        ],
      });
    });

    it('moves past an unknown horizon when a higher one is UNSAT', async () => {
      const script = (t: number): ScriptedAnswer => ({
        result: t === 1 ? 'unknown' : t < 3 ? 'unsat' : 'sat',
        ms: 10,
      });
      const { result, runner } = await sweep(
        { lower: 1, max: 10, parallelism: 2, policy: consecutivePolicy },
        script,
      );
      expect(runner.started).toEqual([1, 2, 3, 4]);
      expect(result?.status).toBe('optimal');
      expect(result?.bounds).toEqual({ lower: 3, upper: 3 });
    });

    it('ends unknown without a plan when every horizon up to max is unknown, each run once', async () => {
      const { result, runner } = await sweep(
        { lower: 1, max: 3, parallelism: 2, policy: probePolicy },
        () => ({
          result: 'unknown',
          ms: 10,
        }),
      );
      expect([...runner.started].sort()).toEqual([1, 2, 3]);
      expect(result?.status).toBe('unknown');
      expect(result?.bounds).toEqual({ lower: 1 });
      expect(result?.plan).toBeUndefined();
    });
  });

  it('passes the stats of an outcome on its horizon event', async () => {
    const { events } = await sweep({ lower: 1, max: 3, parallelism: 1, policy: consecutivePolicy }, () => ({
      result: 'unsat',
      ms: 10,
    }));
    expect(events.filter((e) => e.type === 'horizon' && e.state === 'unsat')).toEqual([
      { type: 'horizon', t: 1, state: 'unsat', ms: 10, stats: { t: 1 }, at: 10 },
      { type: 'horizon', t: 2, state: 'unsat', ms: 10, stats: { t: 2 }, at: 20 },
      { type: 'horizon', t: 3, state: 'unsat', ms: 10, stats: { t: 3 }, at: 30 },
    ]);
  });

  it('refuses a bad configuration before running anything', () => {
    expect(() => new HorizonSweep({ lower: 0, max: 5, parallelism: 0, policy: consecutivePolicy })).toThrow(
      /parallelism/,
    );
    expect(
      () => new HorizonSweep({ lower: 0, max: 5, parallelism: 1, policy: probePolicy, timeoutMs: -1 }),
    ).toThrow(/timeoutMs/);
  });

  describe('with a plan known before it starts', () => {
    const known = { plan: { t: 8, length: 8 }, length: 8, by: 'search', ms: 5 };

    it('only looks below the known plan, and reports the shorter optimum it proves', async () => {
      const { result, runner } = await sweep(
        { lower: 4, max: 12, parallelism: 2, policy: consecutivePolicy, knownPlan: known },
        monotoneScript({ optimum: 6, ms: tenMsPerStep }),
      );
      expect(Math.max(...runner.started)).toBeLessThan(8);
      expect(result).toMatchObject({ status: 'optimal', bounds: { lower: 6, upper: 6 }, horizon: 6 });
      expect(result?.plan).toEqual({ t: 6, length: 6 });
      expect(result?.horizons.find((h) => h.t === 8)).toEqual({ t: 8, result: 'sat', ms: 5, by: 'search' });
    });

    it('reports the known plan as optimal once the horizon below it is UNSAT', async () => {
      const { result, runner, events } = await sweep(
        { lower: 4, max: 12, parallelism: 1, policy: bracketPolicy, knownPlan: known },
        monotoneScript({ optimum: 8, ms: tenMsPerStep }),
      );
      // bracket descends from just below a known plan: one UNSAT proves it.
      expect(runner.started).toEqual([7]);
      expect(result).toMatchObject({ status: 'optimal', bounds: { lower: 8, upper: 8 }, horizon: 8 });
      expect(result?.plan).toBe(known.plan);
      expect(events[0]).toMatchObject({ type: 'horizon', t: 8, state: 'sat', ms: 5 });
    });

    it('keeps the known plan when time runs out before anything shorter', async () => {
      const { result } = await sweep(
        { lower: 4, max: 12, parallelism: 1, policy: consecutivePolicy, timeoutMs: 25, knownPlan: known },
        monotoneScript({ optimum: 6, ms: tenMsPerStep }),
      );
      expect(result).toMatchObject({ status: 'unknown', bounds: { lower: 4, upper: 8 }, horizon: 8 });
      expect(result?.plan).toBe(known.plan);
    });

    it('refuses a known plan beyond max, and fails on one shorter than the lower bound', async () => {
      expect(
        () =>
          new HorizonSweep({ lower: 4, max: 7, parallelism: 1, policy: consecutivePolicy, knownPlan: known }),
      ).toThrow(/knownPlan.length/);
      const { error, runner } = await sweep(
        { lower: 9, max: 12, parallelism: 1, policy: consecutivePolicy, knownPlan: known },
        monotoneScript({ optimum: 9, ms: tenMsPerStep }),
      );
      expect(error).toBeInstanceOf(ContradictoryResultError);
      expect(runner.started).toEqual([]);
    });
  });
});
