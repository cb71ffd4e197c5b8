import { describe, expect, it } from 'vitest';

import { pigeonLadderGame } from '@satfarm/engine/testing';
import { gameById, type GameDefinition } from '@satfarm/games';
import type { HorizonJob } from '@satfarm/queue';

import { SolveHorizonUseCase } from './solve-horizon.usecase.js';

const games = (name: string): GameDefinition<unknown, unknown> =>
  name === 'pigeons' ? pigeonLadderGame : gameById(name);

function job(overrides: Partial<HorizonJob>): HorizonJob {
  return { jobId: 'job-1', game: 'pigeons', instance: { pigeons: 5 }, t: 5, solver: 'kissat', ...overrides };
}

/** A 100x100 Snake at horizon 197: about 3 million clauses, seconds of building. */
function bigSnake(overrides: Partial<HorizonJob>): HorizonJob {
  return job({
    game: 'snake',
    instance: { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] },
    t: 197,
    ...overrides,
  });
}

describe(SolveHorizonUseCase.name, () => {
  const sut = new SolveHorizonUseCase(games);

  it('answers SAT with a verified plan, and UNSAT below the optimum, with the real kissat', async () => {
    const sat = await sut.execute(job({ t: 5 }), new AbortController().signal);
    expect(sat).toMatchObject({ result: 'sat', planLength: 5 });
    expect(sat.stats.solver).toMatch(/^kissat/);
    expect(new Set((sat.plan as { holes: number[] }).holes).size).toBe(5);
    const unsat = await sut.execute(job({ jobId: 'job-2', t: 4 }), new AbortController().signal);
    expect(unsat.result).toBe('unsat');
    expect(unsat.stats.clauses).toBeGreaterThan(0);
  });

  it('proves a single solve unique, or shows a second solution', async () => {
    const one = await sut.execute(
      job({ jobId: 'u1', game: 'cnf', instance: 'p cnf 2 2\n1 0\n-1 -2 0\n', t: 0, unique: true }),
      new AbortController().signal,
    );
    expect(one).toMatchObject({ result: 'sat', unique: true, plan: { model: [1, -2] } });
    const two = await sut.execute(
      job({ jobId: 'u2', game: 'cnf', instance: 'p cnf 2 1\n1 2 0\n', t: 0, unique: true }),
      new AbortController().signal,
    );
    expect(two.unique).toBe(false);
    expect(two.secondSolution).not.toEqual(two.plan);
  });

  it('gives up without solving once the job deadline has passed', async () => {
    const late = await sut.execute(
      job({ jobId: 'late', deadline: Date.now() - 1 }),
      new AbortController().signal,
    );
    expect(late).toMatchObject({ result: 'unknown', reason: 'timeout', ms: 0 });
  });

  it('stops building a formula at the job deadline, where no timer could stop it, and runs no solver', async () => {
    const started = Date.now();
    const big = await sut.execute(
      bigSnake({ jobId: 'big', deadline: Date.now() + 300 }),
      new AbortController().signal,
    );
    expect(big).toMatchObject({ result: 'unknown', reason: 'timeout', stats: { vars: 0, clauses: 0 } });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops building when buildStop says so, and reports the horizon cancelled once the signal has fired, running no solver', async () => {
    const controller = new AbortController();
    const started = Date.now();
    let stopped = false;
    const outcome = await sut.execute(bigSnake({ jobId: 'stopped' }), controller.signal, undefined, () => {
      // Asked while the loop is held, as a worker's cancel flag is; the signal fires at the next
      // turn of the loop, as the worker's own cancel listener would fire it.
      if (!stopped && Date.now() - started > 200) {
        stopped = true;
        setTimeout(() => controller.abort('satfarm-cancel:0'), 0);
      }
      return stopped;
    });
    expect(outcome).toMatchObject({ result: 'cancelled', stats: { vars: 0, clauses: 0, solverMs: 0 } });
    expect(controller.signal.aborted).toBe(true);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('stops the solver when the signal aborts', async () => {
    const controller = new AbortController();
    const running = sut.execute(job({ jobId: 'hard', instance: { pigeons: 13 }, t: 12 }), controller.signal);
    setTimeout(() => controller.abort('satfarm-cancel:0'), 200);
    expect((await running).result).toBe('cancelled');
  });
});
