import { describe, expect, it } from 'vitest';

import { bracketPolicy } from './bracket.policy.js';
import { consecutivePolicy } from './consecutive.policy.js';
import { type HorizonPolicy } from './horizon-policy.js';
import { horizonPolicy } from './horizon-policies.js';
import { leapPolicy } from './leap.policy.js';
import { probePolicy } from './probe.policy.js';
import { ContradictoryResultError } from './sweep.error.js';
import {
  canStart,
  hintedStart,
  type HorizonRun,
  type HorizonVerdict,
  initSweepState,
  inFlightHorizons,
  markCancelled,
  markQueued,
  markStarted,
  nextHorizons,
  nextRuns,
  parseSweepState,
  recordResult,
  type SweepInit,
  type SweepState,
  sweepBounds,
  sweepStatus,
} from './sweep-state.js';

/** What a coordinator starts next: the state's own policy, looked up by the name it stores. */
function next(state: SweepState): number[] {
  return nextHorizons(state, horizonPolicy(state.policy));
}

/** `next` with each run's time limit. */
function runs(state: SweepState): HorizonRun[] {
  return nextRuns(state, horizonPolicy(state.policy));
}

function started(init: SweepInit, horizons: number[], at = 0): SweepState {
  return horizons.reduce((s, t) => markStarted(s, t, at), initSweepState(init));
}

function states(state: SweepState): Record<number, string> {
  return Object.fromEntries(state.horizons.map((h) => [h.t, h.state]));
}

interface ScriptedFarmAnswer {
  result: HorizonVerdict;
  ms: number;
  planLength?: number;
}

/**
 * A farm coordinator in miniature, on the pure state only: queue what `nextHorizons` asks for,
 * start queued jobs, and feed back the earliest answer on a virtual clock. With `restarts`, the
 * state goes through JSON at those points (2k: before step k, 2k + 1: after its queueing), as a
 * coordinator restarting from Redis would.
 */
function simulateFarm(
  init: SweepInit,
  script: (t: number) => ScriptedFarmAnswer,
  restarts: ReadonlySet<number> = new Set(),
): { log: string[]; state: SweepState } {
  let state = initSweepState(init);
  const finishAt = new Map<number, number>();
  const log: string[] = [];
  let clock = 0;
  const restartAt = (point: number): void => {
    if (restarts.has(point)) state = parseSweepState(JSON.parse(JSON.stringify(state)));
  };
  for (let step = 0; sweepStatus(state) === 'running'; step++) {
    restartAt(2 * step);
    for (const t of next(state)) {
      state = markQueued(state, t);
      log.push(`${clock}: queue ${t}`);
    }
    restartAt(2 * step + 1);
    for (const t of inFlightHorizons(state)) {
      if (finishAt.has(t)) continue;
      state = markStarted(state, t, clock);
      finishAt.set(t, clock + script(t).ms);
      log.push(`${clock}: start ${t}`);
    }
    const [t, at] = [...finishAt].reduce((a, b) => (b[1] < a[1] || (b[1] === a[1] && b[0] < a[0]) ? b : a));
    clock = at;
    finishAt.delete(t);
    const answer = script(t);
    const recorded = recordResult(state, t, answer.result, { at, planLength: answer.planLength });
    state = recorded.state;
    for (const c of recorded.cancel) finishAt.delete(c);
    log.push(
      `${clock}: ${answer.result} ${t}, cancel [${recorded.cancel.join(' ')}], bounds ${JSON.stringify(sweepBounds(state))}`,
    );
  }
  return { log, state };
}

const init = (parallelism: number, policy: HorizonPolicy = consecutivePolicy): SweepInit => ({
  lower: 1,
  max: 20,
  parallelism,
  policy,
});

describe(initSweepState.name, () => {
  it('starts with the admissible lower bound, no upper bound and nothing run', () => {
    const sut = initSweepState({ lower: 3, max: 9, parallelism: 2, policy: probePolicy });
    expect(sweepBounds(sut)).toEqual({ lower: 3 });
    expect(sweepStatus(sut)).toBe('running');
    expect(sut.horizons).toEqual([]);
  });

  it('is unsatisfiable from the start when the lower bound exceeds max', () => {
    const sut = initSweepState({ lower: 10, max: 9, parallelism: 2, policy: consecutivePolicy });
    expect(sweepStatus(sut)).toBe('unsatisfiable');
    expect(next(sut)).toEqual([]);
  });

  it('names the bad field', () => {
    expect(() => initSweepState({ lower: -1, max: 9, parallelism: 1, policy: probePolicy })).toThrow(
      /^lower/,
    );
    expect(() => initSweepState({ lower: 0, max: 1.5, parallelism: 1, policy: probePolicy })).toThrow(/^max/);
    expect(() => initSweepState({ lower: 0, max: 9, parallelism: 0, policy: probePolicy })).toThrow(
      /^parallelism/,
    );
  });
});

describe(nextHorizons.name, () => {
  it('fills the free slots and never offers a horizon in flight', () => {
    const state = started(init(3), [1, 2]);
    expect(next(state)).toEqual([3]);
    expect(next(markStarted(state, 3, 0))).toEqual([]);
  });

  it('answers the same until the horizons are marked', () => {
    const state = initSweepState(init(2));
    expect(next(state)).toEqual([1, 2]);
    expect(next(state)).toEqual([1, 2]);
    expect(next(markQueued(state, 1))).toEqual([2]);
  });

  it('stays below the upper bound and within max', () => {
    let state = started(init(4), [5]);
    state = recordResult(state, 5, 'sat').state;
    expect(next(state)).toEqual([1, 2, 3, 4]);
    const narrow = initSweepState({ lower: 7, max: 8, parallelism: 4, policy: consecutivePolicy });
    expect(next(narrow)).toEqual([7, 8]);
  });

  it('offers again a horizon cancelled from outside while still open, never a dominated one', () => {
    let state = started(init(2), [1, 2]);
    state = markCancelled(state, 1, 5);
    expect(next(state)).toEqual([1]);
    state = markStarted(state, 1, 5);
    const recorded = recordResult(state, 2, 'unsat', { at: 9 });
    expect(recorded.cancel).toEqual([1]);
    expect(canStart(recorded.state, 1)).toBe(false);
    expect(next(recorded.state)).toEqual([3, 4]);
  });

  it('refuses a policy that picks a busy horizon', () => {
    const state = started(init(2), [1]);
    expect(() => nextHorizons(state, { name: 'greedy', choose: () => [1] })).toThrow(/greedy/);
  });
});

describe(recordResult.name, () => {
  it('on SAT lowers upper and cancels the queued and running horizons at or above it, except its own', () => {
    let state = started(init(5), [1, 2, 3, 4], 0);
    state = markQueued(state, 5);
    const sut = recordResult(state, 3, 'sat', { at: 7 });
    expect(sweepBounds(sut.state)).toEqual({ lower: 1, upper: 3 });
    expect(sut.cancel).toEqual([4, 5]);
    expect(sut.boundsChanged).toBe(true);
    expect(states(sut.state)).toEqual({
      1: 'running',
      2: 'running',
      3: 'sat',
      4: 'cancelled',
      5: 'cancelled',
    });
    expect(sut.state.horizons.find((h) => h.t === 4)).toEqual({
      t: 4,
      state: 'cancelled',
      startedAt: 0,
      ms: 7,
    });
  });

  it('on UNSAT raises lower and cancels the horizons below it', () => {
    const state = started(init(4), [1, 2, 3, 4]);
    const sut = recordResult(state, 3, 'unsat', { at: 4 });
    expect(sweepBounds(sut.state)).toEqual({ lower: 4 });
    expect(sut.cancel).toEqual([1, 2]);
    expect(states(sut.state)).toEqual({ 1: 'cancelled', 2: 'cancelled', 3: 'unsat', 4: 'running' });
    expect(sut.state.horizons.find((h) => h.t === 3)?.ms).toBe(4);
  });

  it('ends optimal when the bounds meet and unsatisfiable when lower passes max', () => {
    let state = started(init(2), [4, 5]);
    state = recordResult(state, 4, 'unsat').state;
    expect(sweepStatus(state)).toBe('running');
    state = recordResult(state, 5, 'sat').state;
    expect(sweepStatus(state)).toBe('optimal');
    expect(sweepBounds(state)).toEqual({ lower: 5, upper: 5 });

    const capped = started({ lower: 1, max: 3, parallelism: 1, policy: consecutivePolicy }, [3]);
    expect(sweepStatus(recordResult(capped, 3, 'unsat').state)).toBe('unsatisfiable');
  });

  it('takes the plan length as the upper bound when the plan finishes before its horizon', () => {
    const state = started(init(3), [1, 2, 3]);
    const sut = recordResult(state, 3, 'sat', { planLength: 2 });
    expect(sweepBounds(sut.state)).toEqual({ lower: 1, upper: 2 });
    expect(sut.cancel).toEqual([2]);
    expect(() => recordResult(state, 2, 'sat', { planLength: 3 })).toThrow(/planLength/);
  });

  it('never chooses an unknown horizon again and ends unknown when only unknown ones are left', () => {
    let state = started({ lower: 1, max: 2, parallelism: 2, policy: consecutivePolicy }, [1, 2]);
    state = recordResult(state, 1, 'unknown', { reason: 'conflict limit' }).state;
    expect(sweepBounds(state)).toEqual({ lower: 1 });
    expect(next(state)).toEqual([]);
    expect(sweepStatus(state)).toBe('running');
    state = recordResult(state, 2, 'sat').state;
    expect(sweepStatus(state)).toBe('unknown');
    expect(sweepBounds(state)).toEqual({ lower: 1, upper: 2 });
    expect(state.horizons[0]).toEqual({ t: 1, state: 'unknown', startedAt: 0, reason: 'conflict limit' });
  });

  it('applies a late answer of a cancelled horizon, ignores repeats, and rejects contradictions', () => {
    let state = started(init(2), [1, 2]);
    state = markCancelled(state, 2, 3);
    expect(recordResult(state, 2, 'unknown').state).toBe(state);
    state = recordResult(state, 2, 'sat').state;
    expect(sweepBounds(state)).toEqual({ lower: 1, upper: 2 });
    expect(recordResult(state, 2, 'sat').state).toBe(state);
    expect(recordResult(state, 2, 'unknown').state).toBe(state);
    expect(() => recordResult(state, 2, 'unsat')).toThrow(ContradictoryResultError);
    expect(() => recordResult(state, 5, 'unsat')).toThrow(ContradictoryResultError);
    const raised = recordResult(started(init(2), [1, 2]), 2, 'unsat').state;
    expect(() => recordResult(raised, 1, 'sat')).toThrow(ContradictoryResultError);
  });

  it('leaves its argument untouched', () => {
    const state = started(init(3), [1, 2, 3]);
    const before = JSON.stringify(state);
    recordResult(state, 2, 'sat');
    recordResult(state, 2, 'unsat');
    markCancelled(state, 1);
    expect(JSON.stringify(state)).toBe(before);
  });
});

describe('a sweep started from a hint', () => {
  const openAt = (t: number, parallelism = 2): SweepState =>
    initSweepState({ lower: 1, max: 20, parallelism, policy: consecutivePolicy, hint: t + 1 });

  it('opens the window one below the hint but reports only the proven lower bound', () => {
    const sut = openAt(8);
    expect(next(sut)).toEqual([8, 9]);
    expect(sweepBounds(sut)).toEqual({ lower: 1 });
    expect(canStart(sut, 7)).toBe(false);
  });

  it('is proven by an UNSAT at the hint, and then ends optimal like any sweep', () => {
    let state = started({ lower: 1, max: 20, parallelism: 2, policy: consecutivePolicy, hint: 9 }, [8, 9]);
    state = recordResult(state, 8, 'unsat').state;
    expect(sweepBounds(state)).toEqual({ lower: 9 });
    state = recordResult(state, 9, 'sat').state;
    expect(sweepStatus(state)).toBe('optimal');
    expect(sweepBounds(state)).toEqual({ lower: 9, upper: 9 });
  });

  it('never ends optimal on a plan at the hint: the horizons under it open again', () => {
    let state = markStarted(markStarted(openAt(8), 8), 9);
    const recorded = recordResult(state, 8, 'sat');
    state = recorded.state;
    expect(sweepStatus(state)).toBe('running');
    expect(sweepBounds(state)).toEqual({ lower: 1, upper: 8 });
    expect(recorded.cancel).toEqual([9]);
    expect(next(state)).toEqual([1, 2]);
    state = recordResult(markStarted(state, 7), 7, 'unsat').state;
    expect(sweepStatus(state)).toBe('optimal');
    expect(sweepBounds(state)).toEqual({ lower: 8, upper: 8 });
  });

  it('takes a plan shorter than the hint as a fact, not a contradiction', () => {
    const state = recordResult(markStarted(openAt(8), 10), 10, 'sat', { planLength: 5 }).state;
    expect(sweepBounds(state)).toEqual({ lower: 1, upper: 5 });
    expect(next(state)).toEqual([1, 2]);
    expect(() => recordResult(markStarted(openAt(8), 10), 10, 'sat', { planLength: 0 })).toThrow(
      ContradictoryResultError,
    );
  });

  it('keeps the hint and its floor through JSON, and ignores a hint at or below the lower bound', () => {
    const state = markStarted(openAt(8), 8, 5);
    expect(parseSweepState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(initSweepState({ lower: 4, max: 20, parallelism: 1, policy: consecutivePolicy, hint: 5 })).toEqual(
      initSweepState({ lower: 4, max: 20, parallelism: 1, policy: consecutivePolicy }),
    );
    expect(() => initSweepState({ lower: 1, max: 9, parallelism: 1, policy: probePolicy, hint: 10 })).toThrow(
      /^hint/,
    );
    // What callers report as the window's start, by the same rule.
    expect([hintedStart(4, 5), hintedStart(4, 6), hintedStart(4, undefined)]).toEqual([
      undefined,
      5,
      undefined,
    ]);
    expect(
      initSweepState({ lower: 4, max: 20, parallelism: 1, policy: consecutivePolicy, hint: 6 }).lower,
    ).toBe(5);
  });
});

describe(nextRuns.name, () => {
  const patient = (patienceMs?: number): SweepInit => ({
    lower: 0,
    max: 50,
    parallelism: 2,
    policy: bracketPolicy,
    ...(patienceMs === undefined ? {} : { patienceMs }),
  });

  it("limits only the policy's patient probes, and only when the sweep has a patience", () => {
    // bracket: the climber at 0, its ladder's first rung at 1.
    expect(runs(initSweepState(patient(5000)))).toEqual([{ t: 0 }, { t: 1, limitMs: 5000 }]);
    expect(runs(initSweepState(patient()))).toEqual([{ t: 0 }, { t: 1 }]);
    expect(runs(initSweepState({ ...patient(5000), policy: leapPolicy }))).toEqual([{ t: 0 }, { t: 1 }]);
  });

  it('makes a limited run that ends unknown give way: cancelled, free, tried again with twice its time', () => {
    let state = initSweepState(patient(5000));
    state = unsatUpTo(state, 20);
    const [climber, rung] = runs(state);
    expect(rung).toEqual({ t: 32, limitMs: 5000 });
    state = markStarted(markStarted(state, climber!.t, 0), rung!.t, 0, rung!.limitMs);
    const recorded = recordResult(state, 32, 'unknown', { at: 5000, reason: 'cancelled' });
    expect(recorded.boundsChanged).toBe(false);
    expect(recorded.gaveWay).toBe(true);
    state = recorded.state;
    expect(state.horizons.find((h) => h.t === 32)).toEqual({
      t: 32,
      state: 'cancelled',
      startedAt: 0,
      ms: 5000,
      limitMs: 5000,
      reason: 'gave way',
    });
    expect(canStart(state, 32)).toBe(true);
    // The next rung goes a quarter above it, then to the cap (50); the highest that gave way then
    // runs again, as its second run, with twice the time it had.
    expect(runs(state)).toEqual([{ t: 40, limitMs: 5000 }]);
    state = recordResult(markStarted(state, 40, 0, 5000), 40, 'unknown', { at: 5000 }).state;
    expect(runs(state)).toEqual([{ t: 50, limitMs: 5000 }]);
    state = recordResult(markStarted(state, 50, 0, 5000), 50, 'unknown', { at: 7000 }).state;
    expect(runs(state)).toEqual([{ t: 50, limitMs: 14_000 }]);
    state = markStarted(state, 50, 0, 14_000);
    expect(state.horizons.find((h) => h.t === 50)).toMatchObject({ state: 'running', run: 2 });
    // Its answer keeps the run number, for the reports' `runs`.
    state = recordResult(state, 50, 'sat', { at: 100 }).state;
    expect(state.horizons.find((h) => h.t === 50)).toMatchObject({ state: 'sat', run: 2 });
  });

  it('keeps an unknown answer of an unlimited run final', () => {
    let state = markStarted(initSweepState(patient(5000)), 0, 0);
    state = recordResult(state, 0, 'unknown', { at: 10 }).state;
    expect(state.horizons[0]?.state).toBe('unknown');
    expect(canStart(state, 0)).toBe(false);
  });

  it('keeps the limit of a queued horizon when it starts, and through JSON', () => {
    let state = markQueued(initSweepState(patient(5000)), 1, 5000);
    state = markStarted(state, 1, 10);
    expect(state.horizons[0]).toEqual({ t: 1, state: 'running', startedAt: 10, limitMs: 5000 });
    expect(parseSweepState(JSON.parse(JSON.stringify(state)))).toEqual(state);
    expect(() => parseSweepState({ ...state, patienceMs: 0 })).toThrow(/^patienceMs/);
    expect(() => initSweepState(patient(0.5))).toThrow(/^patienceMs/);
  });
});

function unsatUpTo(state: SweepState, to: number): SweepState {
  for (let t = state.lower; t < to; t++) state = recordResult(markStarted(state, t, 0), t, 'unsat').state;
  return state;
}

describe(markStarted.name, () => {
  it('is idempotent for a running horizon and refuses decided or dominated ones', () => {
    let state = started(init(3), [1, 2, 3], 10);
    expect(markStarted(state, 2, 99)).toBe(state);
    state = recordResult(state, 2, 'sat').state;
    expect(() => markStarted(state, 2, 20)).toThrow(/cannot be started/);
    expect(() => markStarted(state, 3, 20)).toThrow(/cannot be started/);
    expect(() => markQueued(state, 7)).toThrow(/cannot be queued/);
  });
});

describe(parseSweepState.name, () => {
  it('round-trips a state through JSON', () => {
    let state = started(init(3), [1, 2, 3], 100);
    state = recordResult(state, 3, 'sat', { at: 150, planLength: 2 }).state;
    state = recordResult(state, 1, 'unknown', { at: 160, reason: 'timeout' }).state;
    expect(parseSweepState(JSON.parse(JSON.stringify(state)))).toEqual(state);
  });

  it('names the first bad field', () => {
    const good = JSON.parse(JSON.stringify(started(init(2), [1, 2]))) as Record<string, unknown>;
    expect(() => parseSweepState({ ...good, version: 2 })).toThrow(/^version/);
    expect(() => parseSweepState({ ...good, lower: 0.5 })).toThrow(/^lower/);
    expect(() => parseSweepState({ ...good, policy: 7 })).toThrow(/^policy/);
    expect(() => parseSweepState({ ...good, horizons: [{ t: 1, state: 'lost' }] })).toThrow(
      /^horizons\[0\]\.state/,
    );
    expect(() =>
      parseSweepState({
        ...good,
        horizons: [
          { t: 2, state: 'sat' },
          { t: 1, state: 'unsat' },
        ],
      }),
    ).toThrow(/increasing/);
  });

  it('continues a sweep restored mid-way exactly as the uninterrupted one', () => {
    const script = (t: number): ScriptedFarmAnswer =>
      t < 9
        ? { result: t === 4 ? 'unknown' : 'unsat', ms: 7 + ((t * 13) % 11) }
        : { result: 'sat', ms: 3 + (t % 4) };
    for (const policy of [consecutivePolicy, probePolicy]) {
      const reference = simulateFarm(init(3, policy), script);
      expect(sweepStatus(reference.state)).toBe('optimal');
      expect(sweepBounds(reference.state)).toEqual({ lower: 9, upper: 9 });
      const points = reference.log.length * 2;
      for (let point = 0; point < points; point++) {
        const restored = simulateFarm(init(3, policy), script, new Set([point]));
        expect(restored.log).toEqual(reference.log);
        expect(restored.state).toEqual(reference.state);
      }
    }
  });
});
