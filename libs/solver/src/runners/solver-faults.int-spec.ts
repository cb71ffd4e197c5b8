import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CnfFormula, randomKSat } from '@satfarm/cnf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { SolverError, type SolverFailure } from '../solver.error.js';
import type { SolveRequest } from '../solver.types.js';
import { descendantProcesses, groupMembers, type ProcessRow, writeScript } from '../testing/process-probe.js';
import { CadicalRunner } from './cadical.runner.js';
import { KissatRunner } from './kissat.runner.js';

/** x1 and not x2: the only model is 1 -2. */
function twoUnits(): CnfFormula {
  const f = new CnfFormula();
  f.pool.reserve(2);
  f.add([1]);
  f.add([-2]);
  return f;
}

// Fault injection: small shell scripts stand in for a broken solver binary. Each answers
// `--version` like a solver, then misbehaves on the real run.
describe('SolverError from a misbehaving solver', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'satfarm-spec-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const fakeKissat = async (name: string, run: string): Promise<KissatRunner> =>
    new KissatRunner({
      binary: await writeScript(dir, name, `[ "$1" = --version ] && { echo 4.0.2; exit 0; }\n${run}`),
    });

  const failureOf = async (runner: KissatRunner, req: SolveRequest): Promise<SolverError> => {
    const error = await runner.solve(req).then(
      (outcome) => new Error(`expected a SolverError, got ${outcome.status}`),
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SolverError);
    return error as SolverError;
  };

  const cases: [string, string, SolverFailure, RegExp][] = [
    ['garbage', 'cat > /dev/null\necho "hello world"', 'bad-output', /unexpected output line 'hello world'/],
    ['no result', 'cat > /dev/null\necho "c thinking"\nexit 10', 'bad-output', /without a result line/],
    ['a bad status', 'cat > /dev/null\necho "s MAYBE"\nexit 10', 'bad-output', /s MAYBE/],
    [
      'garbage after the answer',
      'cat > /dev/null\necho "s SATISFIABLE"\necho "v 1 -2 0"\necho oops\nexit 10',
      'bad-output',
      /oops/,
    ],
    [
      'SAT with exit 20',
      'cat > /dev/null\necho "s SATISFIABLE"\necho "v 1 -2 0"\nexit 20',
      'exit-code-mismatch',
      /20/,
    ],
    ['UNSAT with exit 10', 'cat > /dev/null\necho "s UNSATISFIABLE"\nexit 10', 'exit-code-mismatch', /10/],
    [
      'a wrong model',
      'cat > /dev/null\necho "s SATISFIABLE"\necho "v -1 -2 0"\nexit 10',
      'invalid-model',
      /clause 0/,
    ],
    [
      'an unclosed model',
      'cat > /dev/null\necho "s SATISFIABLE"\necho "v 1 -2"\nexit 10',
      'bad-output',
      /closed/,
    ],
    [
      'a model beyond the formula',
      'cat > /dev/null\necho "s SATISFIABLE"\necho "v 1 -2 3 0"\nexit 10',
      'bad-output',
      /exceeds/,
    ],
    [
      'a contradictory model',
      'cat > /dev/null\necho "s SATISFIABLE"\necho "v 1 -1 -2 0"\nexit 10',
      'bad-output',
      /both ways/,
    ],
    ['a non-literal', 'cat > /dev/null\necho "s SATISFIABLE"\necho "v 1 x 0"\nexit 10', 'bad-output', /'x'/],
    ['a crash', 'cat > /dev/null\nkill -SEGV $$', 'crashed', /SIGSEGV/],
    ['an error exit', 'cat > /dev/null\necho "cannot parse" >&2\nexit 1', 'crashed', /code 1: cannot parse/],
  ];

  it.each(cases)('reports %s as a SolverError', async (name, run, failure, message) => {
    const runner = await fakeKissat(name.replace(/\W+/g, '-'), run);
    const error = await failureOf(runner, { formula: twoUnits() });
    expect(error.failure).toBe(failure);
    expect(error.message).toMatch(message);
  });

  it('accepts the fake when it answers correctly, so the cases above fail for their fault alone', async () => {
    const runner = await fakeKissat(
      'honest',
      'cat > /dev/null\necho "s SATISFIABLE"\necho "v 1 -2 0"\nexit 10',
    );
    expect((await runner.solve({ formula: twoUnits() })).status).toBe('sat');
  });

  it('survives a solver that exits without reading a large formula (EPIPE on stdin)', async () => {
    const runner = await fakeKissat('early-exit', 'echo "s UNKNOWN"\nexit 0');
    const outcome = await runner.solve({ formula: randomKSat(20_000, 80_000, 3, 1) });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'solver-unknown' });
  });

  it('kills a solver that ignores SIGTERM together with the helper it forked', async () => {
    // A one-column report table, so that onProgress tells when the script is running.
    const script =
      '[ "$1" = --version ] && exit 0\ntrap "" TERM\nsleep 30 &\nprintf "c seconds\\nc MB\\nc level\\nc * 0.1 1 2\\n"\nsleep 30';
    const runner = new CadicalRunner({
      binary: await writeScript(dir, 'stubborn', script),
      termGraceMs: 100,
    });
    let group: ProcessRow[] = [];
    const outcome = await runner.solve({
      formula: twoUnits(),
      timeoutMs: 300,
      onProgress: () => {
        const leader = descendantProcesses().find((row) => row.command === 'stubborn');
        if (leader !== undefined) group = groupMembers(leader.pid);
      },
    });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'timeout' });
    expect(group.map((row) => row.command).sort()).toEqual(['sleep', 'sleep', 'stubborn']);
    expect(groupMembers(group[0]!.pgid)).toEqual([]);
  });

  it('names a missing binary and how to fix it', async () => {
    const error = await failureOf(new KissatRunner({ binary: join(dir, 'no-such-kissat') }), {
      formula: twoUnits(),
    });
    expect(error.failure).toBe('missing-binary');
    expect(error.message).toMatch(
      /no-such-kissat.*not found.*install kissat or pass its path as the 'binary' option/,
    );
    await expect(new KissatRunner({ binary: join(dir, 'no-such-kissat') }).version()).rejects.toThrow(
      SolverError,
    );
  });
});
