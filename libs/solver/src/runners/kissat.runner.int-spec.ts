import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CnfFormula, pigeonhole, randomKSat } from '@satfarm/cnf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { installSolverReaper, killAllSolvers, liveSolverCount } from '../process/live-solvers.registry.js';
import type { SolveOutcome, SolverProgress } from '../solver.types.js';
import { descendantProcesses, groupMembers, writeScript } from '../testing/process-probe.js';
import { KissatRunner } from './kissat.runner.js';

/** Ends a run whose stop under test never comes, so a failure cannot leave a solver running. */
const SAFETY_TIMEOUT_MS = 20_000;

const kissatChildren = (): number[] =>
  descendantProcesses()
    .filter((row) => row.command === 'kissat')
    .map((row) => row.pid);

/** Records the solver pids seen at the first progress report, then calls `then` once. */
function watchFirstReport(seen: number[], then: (p: SolverProgress) => void = () => undefined) {
  let first = true;
  return (p: SolverProgress): void => {
    if (!first) return;
    first = false;
    seen.push(...kissatChildren());
    then(p);
  };
}

function expectNoSolverLeft(seen: number[]): void {
  expect(seen.length).toBeGreaterThan(0);
  expect(kissatChildren()).toEqual([]);
  for (const pid of seen) expect(groupMembers(pid)).toEqual([]);
  expect(liveSolverCount()).toBe(0);
}

describe(KissatRunner.name, () => {
  const sut = new KissatRunner();

  it('reports its name and version, the same on every call', async () => {
    const version = await sut.version();
    expect(version).toMatch(/^kissat \d+\.\d+\.\d+/);
    expect(await sut.version()).toBe(version);
    expect(sut.name).toBe('kissat');
  });

  it('finds a model of a satisfiable formula that puts every pigeon in its own hole', async () => {
    const formula = pigeonhole(6, 6);
    const outcome = await sut.solve({ formula });
    expect(outcome.status).toBe('sat');
    if (outcome.status !== 'sat') return;
    expect(outcome.model.firstFalsifiedClause(formula)).toBe(-1);
    const holes = new Set<number>();
    for (let p = 0; p < 6; p++) {
      const inHoles = [0, 1, 2, 3, 4, 5].filter((h) => outcome.model.named(formula.pool, 'in', p, h));
      holes.add(inHoles[0]!);
    }
    expect(holes.size).toBe(6);
    expect(outcome.stats).toMatchObject({ solver: await sut.version(), exitCode: 10 });
  });

  it('proves an unsatisfiable formula unsatisfiable, with search statistics', async () => {
    const outcome = await sut.solve({ formula: pigeonhole(7, 6) });
    expect(outcome.status).toBe('unsat');
    expect(outcome.stats.exitCode).toBe(20);
    expect(outcome.stats.conflicts).toBeGreaterThan(0);
    expect(outcome.stats.decisions).toBeGreaterThan(0);
    expect(outcome.stats.propagations).toBeGreaterThan(0);
  });

  it('answers the empty formula and the empty clause', async () => {
    expect((await sut.solve({ formula: new CnfFormula() })).status).toBe('sat');
    const contradiction = new CnfFormula();
    contradiction.add([]);
    expect((await sut.solve({ formula: contradiction })).status).toBe('unsat');
  });

  it('gives the same answers under the sat and unsat presets', async () => {
    const sat = randomKSat(120, 400, 3, 7);
    const unsat = pigeonhole(6, 5);
    for (const preset of ['default', 'sat', 'unsat'] as const) {
      const a = await sut.solve({ formula: sat, preset });
      expect(a.status).toBe('sat');
      if (a.status === 'sat') expect(a.model.firstFalsifiedClause(sat)).toBe(-1);
      expect((await sut.solve({ formula: unsat, preset })).status).toBe('unsat');
    }
  });

  it('streams a formula far larger than the pipe buffer', async () => {
    const formula = randomKSat(50_000, 100_000, 3, 11);
    const outcome = await sut.solve({ formula });
    expect(outcome.status).toBe('sat');
    if (outcome.status === 'sat') expect(outcome.model.firstFalsifiedClause(formula)).toBe(-1);
  });

  it('reports progress with growing time and conflicts on a run of about a second', async () => {
    const events: SolverProgress[] = [];
    const outcome = await sut.solve({ formula: pigeonhole(10, 9), onProgress: (p) => events.push(p) });
    expect(outcome.status).toBe('unsat');
    expect(events.length).toBeGreaterThan(5);
    for (let i = 1; i < events.length; i++) {
      expect(events[i]!.seconds).toBeGreaterThanOrEqual(events[i - 1]!.seconds);
      expect(events[i]!.conflicts!).toBeGreaterThanOrEqual(events[i - 1]!.conflicts!);
    }
    const last = events.at(-1)!;
    expect(last.raw).toMatch(/^c /);
    expect(last.conflicts).toBeGreaterThan(1000);
    expect(last.conflicts).toBeLessThanOrEqual(outcome.stats.conflicts!);
    expect(last.remainingVariables).toBeGreaterThan(0);
  });

  it('gives unknown/timeout on a hard formula and leaves no process behind', async () => {
    const seen: number[] = [];
    const outcome = await sut.solve({
      formula: pigeonhole(12, 11),
      timeoutMs: 300,
      onProgress: watchFirstReport(seen),
    });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'timeout' });
    expect(outcome.stats.exitCode).toBeNull();
    expectNoSolverLeft(seen);
  });

  it('solves under a time limit longer than a timer can wait', async () => {
    const outcome = await sut.solve({ formula: pigeonhole(4, 4), timeoutMs: 40 * 24 * 3600 * 1000 });
    expect(outcome.status).toBe('sat');
  });

  it('is cancelled mid-solve by its abort signal and leaves no process behind', async () => {
    const seen: number[] = [];
    const controller = new AbortController();
    const outcome = await sut.solve({
      formula: pigeonhole(12, 11),
      signal: controller.signal,
      timeoutMs: SAFETY_TIMEOUT_MS,
      onProgress: watchFirstReport(seen, () => controller.abort()),
    });
    expect(outcome.status).toBe('cancelled');
    expectNoSolverLeft(seen);
  });

  it('kills the solver group after a SIGTERM grace period too', async () => {
    const seen: number[] = [];
    const controller = new AbortController();
    const outcome = await new KissatRunner({ termGraceMs: 200 }).solve({
      formula: pigeonhole(12, 11),
      signal: controller.signal,
      timeoutMs: SAFETY_TIMEOUT_MS,
      onProgress: watchFirstReport(seen, () => controller.abort()),
    });
    expect(outcome.status).toBe('cancelled');
    expectNoSolverLeft(seen);
  });

  it('rejects with the error of a throwing progress callback, after killing the solver', async () => {
    const seen: number[] = [];
    const broken = new Error('display broke');
    const solving = sut.solve({
      formula: pigeonhole(12, 11),
      timeoutMs: SAFETY_TIMEOUT_MS,
      onProgress: watchFirstReport(seen, () => {
        throw broken;
      }),
    });
    await expect(solving).rejects.toBe(broken);
    expectNoSolverLeft(seen);
  });

  describe('with a pre-aborted signal', () => {
    let dir: string;
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'satfarm-spec-'));
    });
    afterAll(async () => {
      await rm(dir, { recursive: true, force: true });
    });

    it('spawns nothing and answers cancelled', async () => {
      const log = join(dir, 'started.log');
      const binary = await writeScript(dir, 'kissat-logged', `echo "$@" >> '${log}'\nexec kissat "$@"`);
      const runner = new KissatRunner({ binary });
      const controller = new AbortController();
      controller.abort();
      const outcome = await runner.solve({ formula: pigeonhole(3, 3), signal: controller.signal });
      expect(outcome.status).toBe('cancelled');
      expect(existsSync(log)).toBe(false);
      expect((await runner.solve({ formula: pigeonhole(3, 3) })).status).toBe('sat');
      expect(await readFile(log, 'utf8')).not.toBe('');
    });
  });

  describe('resource limits', () => {
    it('gives unknown/limit when the CPU-time limit is reached', async () => {
      const seen: number[] = [];
      const outcome = await new KissatRunner({ cpuSeconds: 1 }).solve({
        formula: pigeonhole(12, 11),
        onProgress: watchFirstReport(seen),
      });
      expect(outcome).toMatchObject({ status: 'unknown', reason: 'limit' });
      expectNoSolverLeft(seen);
    });

    it('gives unknown/limit when the memory limit is too small for the formula', async () => {
      const outcome = await new KissatRunner({ memoryMiB: 40 }).solve({
        formula: randomKSat(100_000, 400_000, 3, 5),
      });
      expect(outcome).toMatchObject({ status: 'unknown', reason: 'limit' });
    });

    it('still solves an easy formula within its limits', async () => {
      const outcome = await new KissatRunner({ cpuSeconds: 30, memoryMiB: 1024 }).solve({
        formula: pigeonhole(7, 6),
      });
      expect(outcome.status).toBe('unsat');
    });
  });

  describe('stopping every solver of the process', () => {
    const solveKilledFromOutside = async (killAll: () => void): Promise<[SolveOutcome, number[]]> => {
      const seen: number[] = [];
      const outcome = await sut.solve({
        formula: pigeonhole(12, 11),
        timeoutMs: SAFETY_TIMEOUT_MS,
        onProgress: watchFirstReport(seen, killAll),
      });
      return [outcome, seen];
    };

    it('killAllSolvers kills running solvers, which end cancelled', async () => {
      let killed = 0;
      const [outcome, seen] = await solveKilledFromOutside(() => (killed = killAllSolvers()));
      expect(killed).toBe(1);
      expect(outcome.status).toBe('cancelled');
      expectNoSolverLeft(seen);
    });

    it('the reaper kills running solvers on SIGTERM and leaves the signal to the application', async () => {
      const appHandler = (): void => undefined;
      process.on('SIGTERM', appHandler);
      const before = process.listenerCount('SIGTERM');
      const uninstall = installSolverReaper();
      try {
        const [outcome, seen] = await solveKilledFromOutside(() => process.emit('SIGTERM', 'SIGTERM'));
        expect(outcome.status).toBe('cancelled');
        expectNoSolverLeft(seen);
      } finally {
        uninstall();
        process.off('SIGTERM', appHandler);
      }
      expect(process.listenerCount('SIGTERM')).toBe(before - 1);
    });
  });
});
