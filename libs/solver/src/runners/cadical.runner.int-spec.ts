import { pigeonhole, randomKSat } from '@satfarm/cnf';
import { describe, expect, it } from 'vitest';

import type { SolverProgress } from '../solver.types.js';
import { descendantProcesses, groupMembers } from '../testing/process-probe.js';
import { CadicalRunner } from './cadical.runner.js';

const cadicalChildren = (): number[] =>
  descendantProcesses()
    .filter((row) => row.command === 'cadical')
    .map((row) => row.pid);

describe(CadicalRunner.name, () => {
  const sut = new CadicalRunner();

  it('reports its name and version', async () => {
    expect(await sut.version()).toMatch(/^cadical \S+$/);
    expect(sut.name).toBe('cadical');
  });

  it('finds a checked model of a satisfiable formula under every preset', async () => {
    const formula = randomKSat(150, 500, 3, 3);
    for (const preset of ['default', 'sat', 'unsat'] as const) {
      const outcome = await sut.solve({ formula, preset });
      expect(outcome.status).toBe('sat');
      if (outcome.status === 'sat') expect(outcome.model.firstFalsifiedClause(formula)).toBe(-1);
      expect(outcome.stats.exitCode).toBe(10);
    }
  });

  it('proves an unsatisfiable formula unsatisfiable', async () => {
    const outcome = await sut.solve({ formula: pigeonhole(7, 6) });
    expect(outcome.status).toBe('unsat');
    expect(outcome.stats.conflicts).toBeGreaterThan(0);
  });

  it('reports progress, then gives unknown/timeout and leaves no process behind', async () => {
    const events: SolverProgress[] = [];
    const seen: number[] = [];
    const outcome = await sut.solve({
      formula: pigeonhole(12, 11),
      timeoutMs: 1000,
      onProgress: (p) => {
        if (events.length === 0) seen.push(...cadicalChildren());
        events.push(p);
      },
    });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'timeout' });
    expect(events.length).toBeGreaterThan(1);
    const last = events.at(-1)!;
    expect(last.conflicts).toBeGreaterThan(0);
    expect(last.remainingVariables).toBeGreaterThan(0);
    expect(outcome.stats.conflicts).toBe(last.conflicts);
    expect(seen.length).toBe(1);
    expect(cadicalChildren()).toEqual([]);
    expect(groupMembers(seen[0]!)).toEqual([]);
  });

  it("gives unknown/solver-unknown when its own conflict limit stops it ('c UNKNOWN')", async () => {
    const outcome = await new CadicalRunner({ extraArgs: ['-c', '10'] }).solve({
      formula: pigeonhole(10, 9),
    });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'solver-unknown' });
  });
});
