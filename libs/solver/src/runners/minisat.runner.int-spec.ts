import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';

import { pigeonhole, randomKSat } from '@satfarm/cnf';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { WORK_DIR_PREFIX } from '../process/work-dir.js';
import { SolverError } from '../solver.error.js';
import { descendantProcesses, writeScript } from '../testing/process-probe.js';
import { MinisatRunner } from './minisat.runner.js';

describe(MinisatRunner.name, () => {
  let tmpDir: string;
  let sut: MinisatRunner;
  beforeAll(async () => {
    tmpDir = await mkdtemp(join(tmpdir(), 'satfarm-spec-'));
    sut = new MinisatRunner({ tmpDir });
  });
  afterEach(async () => {
    expect(await readdir(tmpDir)).toEqual([]);
  });
  afterAll(async () => {
    await rm(tmpDir, { recursive: true, force: true });
  });

  it('reports its name', async () => {
    expect(await sut.version()).toBe('minisat');
  });

  it('finds a checked model through its result file and removes the work directory', async () => {
    const formula = randomKSat(150, 500, 3, 3);
    const outcome = await sut.solve({ formula, preset: 'unsat' });
    expect(outcome.status).toBe('sat');
    if (outcome.status === 'sat') expect(outcome.model.firstFalsifiedClause(formula)).toBe(-1);
    expect(outcome.stats).toMatchObject({ solver: 'minisat', exitCode: 10 });
    expect(outcome.stats.propagations).toBeGreaterThan(0);
  });

  it('proves an unsatisfiable formula unsatisfiable', async () => {
    const outcome = await sut.solve({ formula: pigeonhole(7, 6) });
    expect(outcome.status).toBe('unsat');
    expect(outcome.stats.conflicts).toBeGreaterThan(0);
  });

  it('gives unknown/timeout on a hard formula, with no process or work directory left', async () => {
    const outcome = await sut.solve({ formula: pigeonhole(12, 11), timeoutMs: 300 });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'timeout' });
    expect(descendantProcesses().filter((row) => row.command === 'minisat')).toEqual([]);
  });

  it('gives unknown/limit when its CPU-time limit makes it answer INDET', async () => {
    const outcome = await new MinisatRunner({ tmpDir, cpuSeconds: 1 }).solve({ formula: pigeonhole(12, 11) });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'limit', stats: { exitCode: 0 } });
  });

  it('removes the work directory when the solver crashes', async () => {
    const scripts = await mkdtemp(join(tmpdir(), 'satfarm-spec-'));
    try {
      const log = join(scripts, 'args.log');
      const binary = await writeScript(scripts, 'minisat-crash', `echo "$@" >> '${log}'\nexit 3`);
      const error = await new MinisatRunner({ binary, tmpDir })
        .solve({ formula: pigeonhole(3, 3) })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(SolverError);
      expect((error as SolverError).failure).toBe('crashed');
      const resultFile = (await readFile(log, 'utf8')).trim().split('\n').at(-1)!.split(' ').at(-1)!;
      expect(dirname(dirname(resultFile))).toBe(tmpDir);
      expect(basename(dirname(resultFile))).toMatch(new RegExp(`^${WORK_DIR_PREFIX}`));
    } finally {
      await rm(scripts, { recursive: true, force: true });
    }
  });
});
