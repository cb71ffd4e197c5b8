import { describe, expect, it } from 'vitest';

import { createSolver } from './create-solver.js';
import { CadicalRunner } from './runners/cadical.runner.js';
import { KissatRunner } from './runners/kissat.runner.js';
import { MinisatRunner } from './runners/minisat.runner.js';
import type { SolverName } from './solver.types.js';

describe(createSolver.name, () => {
  it.each([
    ['kissat', KissatRunner],
    ['cadical', CadicalRunner],
    ['minisat', MinisatRunner],
  ] as const)('creates the %s runner', (name, runner) => {
    const sut = createSolver(name);
    expect(sut).toBeInstanceOf(runner);
    expect(sut.name).toBe(name);
  });

  it('rejects an unknown solver and invalid limits', () => {
    expect(() => createSolver('glucose' as SolverName)).toThrow(/unknown solver 'glucose'/);
    expect(() => createSolver('kissat', { cpuSeconds: 0 })).toThrow(RangeError);
  });
});
