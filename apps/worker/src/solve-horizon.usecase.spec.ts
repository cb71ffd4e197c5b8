import { describe, expect, it } from 'vitest';

import type { HorizonTask, HorizonTaskProgress, HorizonTaskResult } from '@satfarm/engine';
import type { HorizonJob, HorizonProgress } from '@satfarm/queue';

import { type HorizonRunner, SolveHorizonUseCase } from './solve-horizon.usecase.js';

function job(overrides: Partial<HorizonJob> = {}): HorizonJob {
  return { jobId: 'job-1', game: 'pigeons', instance: { pigeons: 5 }, t: 5, solver: 'kissat', ...overrides };
}

const stats = { vars: 30, clauses: 90, solver: 'kissat 4.0.2', solverMs: 12.4, encodeMs: 3.6, conflicts: 7 };

/** A runner that records its tasks and answers with `result`, after sending `progress` lines. */
function runner(result: HorizonTaskResult, progress: HorizonTaskProgress[] = []) {
  const tasks: HorizonTask[] = [];
  const signals: Array<AbortSignal | undefined> = [];
  const fake: HorizonRunner = {
    run: (task, signal, onProgress) => {
      tasks.push(task);
      signals.push(signal);
      for (const line of progress) onProgress?.(line);
      return Promise.resolve(result);
    },
  };
  return { fake, tasks, signals };
}

describe(SolveHorizonUseCase.name, () => {
  it("hands the runner the job's horizon, encoding, preset, formula memory and uniqueness, keyed by job", async () => {
    const { fake, tasks } = runner({ result: 'unsat', stats });
    const sut = new SolveHorizonUseCase(fake, 1024);
    await sut.execute(
      job({ t: 4, encoding: { amo: 'commander' }, preset: 'unsat', unique: true }),
      new AbortController().signal,
    );
    expect(tasks).toEqual([
      {
        game: 'pigeons',
        instance: { pigeons: 5 },
        instanceKey: 'job-1',
        solver: 'kissat',
        run: { t: 4, encoding: { amo: 'commander' }, preset: 'unsat', maxFormulaBytes: 1024, unique: true },
      },
    ]);
  });

  it("gives the run the job's remaining time: the earlier of its deadline and a probe's limit", async () => {
    const { fake, tasks } = runner({ result: 'unsat', stats });
    const sut = new SolveHorizonUseCase(fake);
    await sut.execute(job({ deadline: Date.now() + 60_000 }), new AbortController().signal);
    await sut.execute(job({ deadline: Date.now() + 60_000, limitMs: 5000 }), new AbortController().signal);
    await sut.execute(job({ limitMs: 5000 }), new AbortController().signal);
    await sut.execute(job(), new AbortController().signal);
    const timeouts = tasks.map((task) => task.run.timeoutMs);
    expect(timeouts[0]).toBeGreaterThan(59_000);
    expect(timeouts[0]).toBeLessThanOrEqual(60_000);
    expect(timeouts.slice(1)).toEqual([5000, 5000, undefined]);
  });

  it('gives up without running once the job deadline has passed', async () => {
    const { fake, tasks } = runner({ result: 'unsat', stats });
    const late = await new SolveHorizonUseCase(fake).execute(
      job({ deadline: Date.now() - 1 }),
      new AbortController().signal,
    );
    expect(late).toMatchObject({ result: 'unknown', reason: 'timeout', ms: 0, stats: { unbuilt: true } });
    expect(tasks).toEqual([]);
  });

  it('passes the abort signal on, so that a cancel reaches the run', async () => {
    const { fake, signals } = runner({ result: 'cancelled', stats });
    const controller = new AbortController();
    const outcome = await new SolveHorizonUseCase(fake).execute(job(), controller.signal);
    expect(signals).toEqual([controller.signal]);
    expect(outcome.result).toBe('cancelled');
  });

  it("turns the solver's conflict lines into progress with the formula's size, skipping lines without a count", async () => {
    const line = (conflicts?: number): HorizonTaskProgress => ({
      seconds: 1,
      raw: 'c ...',
      ...(conflicts === undefined ? {} : { conflicts }),
      vars: 30,
      clauses: 90,
      solver: 'kissat 4.0.2',
    });
    const { fake } = runner({ result: 'unsat', stats }, [line(10), line(), line(25)]);
    const heard: HorizonProgress[] = [];
    await new SolveHorizonUseCase(fake).execute(job(), new AbortController().signal, (p) => heard.push(p));
    expect(
      heard.map(({ conflicts, vars, clauses, solver }) => ({ conflicts, vars, clauses, solver })),
    ).toEqual([
      { conflicts: 10, vars: 30, clauses: 90, solver: 'kissat 4.0.2' },
      { conflicts: 25, vars: 30, clauses: 90, solver: 'kissat 4.0.2' },
    ]);
  });

  it('reports a plan with its length and uniqueness, and rounds the times of its figures', async () => {
    const { fake } = runner({
      result: 'sat',
      plan: { holes: [0, 1, 2, 3, 4] },
      planLength: 5,
      unique: false,
      secondSolution: { holes: [1, 0, 2, 3, 4] },
      stats: { ...stats, solverCpuMs: 11, solverPeakRssKiB: 4096 },
    });
    const outcome = await new SolveHorizonUseCase(fake).execute(job(), new AbortController().signal);
    expect(outcome).toMatchObject({
      result: 'sat',
      planLength: 5,
      plan: { holes: [0, 1, 2, 3, 4] },
      unique: false,
      secondSolution: { holes: [1, 0, 2, 3, 4] },
      stats: { solverMs: 12, encodeMs: 4, conflicts: 7, solverCpuMs: 11, solverPeakRssKiB: 4096 },
    });
  });

  it('keeps the reason of a horizon without an answer, and says when no formula was built', async () => {
    const { fake } = runner({
      result: 'unknown',
      reason: 'formula-limit',
      stats: { ...stats, vars: 0, clauses: 0, unbuilt: true },
    });
    expect(await new SolveHorizonUseCase(fake).execute(job(), new AbortController().signal)).toMatchObject({
      result: 'unknown',
      reason: 'formula-limit',
      stats: { vars: 0, clauses: 0, unbuilt: true },
    });
  });

  it('solves a cube as solveCube does: its parsed instance at its own horizon, keyed by job and cube', async () => {
    const { fake, tasks } = runner({ result: 'unsat', stats });
    const sut = new SolveHorizonUseCase(fake);
    const instance = { pigeons: 4, lowerBound: 2 };
    const outcome = await sut.execute(
      job({ t: 6, preset: 'unsat', unique: true, cube: { index: 2, t: 5, lowerBound: 2, instance } }),
      new AbortController().signal,
    );
    expect(outcome.result).toBe('unsat');
    expect(tasks).toEqual([
      {
        game: 'pigeons',
        instance,
        instanceKey: 'job-1.c2',
        parsed: true,
        solver: 'kissat',
        run: { t: 5, preset: 'unsat' },
      },
    ]);
  });

  it('refutes a cube whose lower bound exceeds its horizon without a solver', async () => {
    const { fake, tasks } = runner({ result: 'sat', plan: {}, planLength: 1, stats });
    const sut = new SolveHorizonUseCase(fake);
    const outcome = await sut.execute(
      job({ t: 6, cube: { index: 0, t: 5, lowerBound: 6, instance: { pigeons: 4 } } }),
      new AbortController().signal,
    );
    expect(outcome).toMatchObject({ result: 'unsat', ms: 0, stats: { vars: 0, clauses: 0, unbuilt: true } });
    expect(tasks).toEqual([]);
  });
});
