import { type RandomGenerator, unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { bracketPolicy } from './bracket.policy.js';
import { HORIZON_POLICIES } from './horizon-policies.js';
import type { HorizonPolicy } from './horizon-policy.js';
import { HorizonSweep, type SweepResult } from './horizon-sweep.js';
import { probePolicy } from './probe.policy.js';
import {
  type ScriptedAnswer,
  ScriptedHorizonRunner,
  type ScriptedPlan,
} from './testing/scripted-horizon.runner.js';

const POLICIES = HORIZON_POLICIES;

interface RandomInstance {
  lower: number;
  max: number;
  optimum: number;
  parallelism: number;
  policy: HorizonPolicy;
  script: (t: number) => ScriptedAnswer;
}

/**
 * A random monotone instance: UNSAT below the optimum (sometimes above max), SAT from it up with
 * plans that may finish anywhere between the optimum and their horizon, random run times and
 * random delays for aborted runs to stop.
 */
function randomInstance(seed: number): RandomInstance {
  const rng: RandomGenerator = xoroshiro128plus(seed);
  const int = (from: number, to: number): number => unsafeUniformIntDistribution(from, to, rng);
  const lower = int(0, 6);
  const max = lower + int(0, 14);
  const optimum = int(lower, max + 2);
  const answers = new Map<number, ScriptedAnswer>();
  for (let t = lower; t <= max; t++) {
    answers.set(t, {
      result: t >= optimum ? 'sat' : 'unsat',
      ms: int(1, 60),
      planLength: t >= optimum ? int(optimum, t) : undefined,
      abortMs: int(0, 30),
      rejectOnAbort: int(0, 1) === 1,
    });
  }
  return {
    lower,
    max,
    optimum,
    parallelism: int(1, 5),
    policy: POLICIES[int(0, POLICIES.length - 1)]!,
    script: (t) => {
      const answer = answers.get(t);
      if (answer === undefined) throw new Error(`horizon ${t} outside [${lower}, ${max}] was run`);
      return answer;
    },
  };
}

/** The sweep ended at the instance's optimum with its plan, or proved there is none within max. */
function expectTheAnswer(result: SweepResult<ScriptedPlan>, instance: RandomInstance, context: string): void {
  if (instance.optimum <= instance.max) {
    expect(result.status, context).toBe('optimal');
    expect(result.bounds, context).toEqual({ lower: instance.optimum, upper: instance.optimum });
    expect(result.horizon, context).toBe(instance.optimum);
    expect(result.plan?.length, context).toBe(instance.optimum);
  } else {
    expect(result.status, context).toBe('unsatisfiable');
    expect(result.bounds, context).toEqual({ lower: instance.max + 1 });
    expect(result.plan, context).toBeUndefined();
  }
}

describe(`${HorizonSweep.name} on random monotone instances`, () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.setSystemTime(0);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('always ends at the optimum, runs each horizon once, and leaves no run behind', async () => {
    for (let seed = 1; seed <= 400; seed++) {
      const instance = randomInstance(seed);
      const runner = new ScriptedHorizonRunner(instance.script);
      const sut = new HorizonSweep<ScriptedPlan>({ ...instance, now: () => Date.now() });
      const settled = sut.run(runner).then((result) => ({ result, pendingAtEnd: runner.pending }));
      await vi.runAllTimersAsync();
      const { result, pendingAtEnd } = await settled;
      const context = `seed ${seed}: ${JSON.stringify({ ...instance, script: undefined })}`;

      expectTheAnswer(result, instance, context);
      expect(new Set(runner.started).size, context).toBe(runner.started.length);
      expect(runner.maxCopies, context).toBe(1);
      expect(runner.maxLive, context).toBeLessThanOrEqual(instance.parallelism);
      expect(pendingAtEnd, context).toBe(0);
      expect(
        result.horizons.map((h) => h.t),
        context,
      ).toEqual([...runner.started].sort((a, b) => a - b));
      for (const h of result.horizons) {
        if (h.result === 'sat') expect(h.t, context).toBeGreaterThanOrEqual(instance.optimum);
        if (h.result === 'unsat') expect(h.t, context).toBeLessThan(instance.optimum);
      }
    }
  });

  it('from a hint, right or wrong, still ends at the optimum and runs nothing under a right one', async () => {
    let wrong = 0;
    for (let seed = 1; seed <= 400; seed++) {
      const instance = randomInstance(seed);
      const hint = instance.lower + (seed % (instance.max - instance.lower + 1));
      const runner = new ScriptedHorizonRunner(instance.script);
      const sut = new HorizonSweep<ScriptedPlan>({ ...instance, hint, now: () => Date.now() });
      const settled = sut.run(runner).then((result) => ({ result, pendingAtEnd: runner.pending }));
      await vi.runAllTimersAsync();
      const { result, pendingAtEnd } = await settled;
      const context = `seed ${seed}: ${JSON.stringify({ ...instance, hint, script: undefined })}`;

      expectTheAnswer(result, instance, context);
      if (hint <= instance.optimum) {
        expect(Math.min(...runner.started), context).toBeGreaterThanOrEqual(hint - 1);
      } else {
        wrong++;
      }
      expect(new Set(runner.started).size, context).toBe(runner.started.length);
      expect(runner.maxLive, context).toBeLessThanOrEqual(instance.parallelism);
      expect(pendingAtEnd, context).toBe(0);
    }
    expect(wrong).toBeGreaterThan(50);
  });

  it('with patience still ends at the optimum, and runs a horizon again only after stopping it', async () => {
    let rerun = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const instance = randomInstance(seed);
      const policy = seed % 2 === 0 ? probePolicy : bracketPolicy;
      const patienceMs = 5 + (seed % 36);
      const runner = new ScriptedHorizonRunner(instance.script);
      const sut = new HorizonSweep<ScriptedPlan>({ ...instance, policy, patienceMs, now: () => Date.now() });
      const settled = sut.run(runner).then((result) => ({ result, pendingAtEnd: runner.pending }));
      await vi.runAllTimersAsync();
      const { result, pendingAtEnd } = await settled;
      const context = `seed ${seed}: ${JSON.stringify({ ...instance, policy, patienceMs, script: undefined })}`;

      expectTheAnswer(result, instance, context);
      expect(runner.maxLive, context).toBeLessThanOrEqual(instance.parallelism);
      expect(pendingAtEnd, context).toBe(0);
      if (runner.started.length > new Set(runner.started).size) rerun++;
      for (const t of new Set(runner.started)) {
        const runs = runner.runs.filter((r) => r.t === t);
        runs.slice(1).forEach((r, k) => {
          expect(runs[k]!.abortedAt, context).toBeDefined();
          expect(runs[k]!.abortedAt!, context).toBeLessThanOrEqual(r.startedAt);
        });
      }
    }
    // Horizons gave way and ran again on a good share of the instances.
    expect(rerun).toBeGreaterThan(30);
  });
});
