import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { CnfFormula, pigeonhole } from '@satfarm/cnf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { liveSolverCount } from '../process/live-solvers.registry.js';
import { CadicalRunner } from '../runners/cadical.runner.js';
import { KissatRunner } from '../runners/kissat.runner.js';
import { MinisatRunner } from '../runners/minisat.runner.js';
import { descendantProcesses, writeScript } from '../testing/process-probe.js';
import { checkDratProof } from './drat-check.js';

const GiB = 1024 ** 3;

/** x1 or x2, and not x1: satisfiable (only by 2), so any proof of its unsatisfiability is wrong. */
function satisfiable(): CnfFormula {
  const f = new CnfFormula();
  f.pool.reserve(2);
  f.add([1, 2]);
  f.add([-1]);
  return f;
}

const childCommands = (): string[] => descendantProcesses().map((row) => row.command);

// Certified runs (docs/solvers.md#certified-answers): real kissat, cadical and drat-trim.
describe('certified runs', () => {
  let dir: string;
  let tmpDir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'satfarm-spec-'));
    tmpDir = await mkdtemp(join(tmpdir(), 'satfarm-spec-runs-'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
    await rm(tmpDir, { recursive: true, force: true });
  });

  const expectNothingLeft = async (): Promise<void> => {
    expect(await readdir(tmpDir)).toEqual([]);
    expect(liveSolverCount()).toBe(0);
    expect(childCommands().filter((c) => ['kissat', 'cadical', 'drat-trim', 'sleep'].includes(c))).toEqual(
      [],
    );
  };

  it.each(['kissat', 'cadical'])(
    '%s: an UNSAT answer whose proof drat-trim verifies, the proof gone after',
    async (name) => {
      const runner = name === 'kissat' ? new KissatRunner({ tmpDir }) : new CadicalRunner({ tmpDir });
      expect(runner.proofs).toBe(true);
      const outcome = await runner.solve({ formula: pigeonhole(7, 6), proof: { maxBytes: GiB } });
      expect(outcome.status).toBe('unsat');
      expect(outcome.stats.proof?.result).toBe('verified');
      expect(outcome.stats.proof?.bytes).toBeGreaterThan(1000);
      expect(outcome.stats.proof?.checkMs).toBeGreaterThanOrEqual(0);
      await expectNothingLeft();
    },
  );

  it('gives a SAT answer with its checked model and no proof figures', async () => {
    const outcome = await new KissatRunner({ tmpDir }).solve({
      formula: pigeonhole(6, 6),
      proof: { maxBytes: GiB },
    });
    expect(outcome.status).toBe('sat');
    expect(outcome.stats.proof).toBeUndefined();
    await expectNothingLeft();
  });

  it('catches a solver that answers UNSAT wrongly: unknown, proof-rejected', async () => {
    // The liar prints UNSATISFIABLE for a satisfiable formula and writes an empty proof (its last argument).
    const liar = await writeScript(
      dir,
      'lying-kissat',
      '[ "$1" = --version ] && { echo 4.0.2; exit 0; }\nproof=\nfor a; do proof=$a; done\nif [ -n "$proof" ]; then : > "$proof"; else cat > /dev/null; fi\necho "s UNSATISFIABLE"\nexit 20',
    );
    const runner = new KissatRunner({ binary: liar, tmpDir });
    expect(await runner.solve({ formula: satisfiable() })).toMatchObject({ status: 'unsat' });
    const outcome = await runner.solve({ formula: satisfiable(), proof: { maxBytes: GiB } });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'proof-rejected' });
    expect(outcome.stats.proof).toMatchObject({ bytes: 0, result: 'rejected' });
    await expectNothingLeft();
  });

  it('stops the solver at the proof cap: unknown, proof-limit', async () => {
    const outcome = await new KissatRunner({ tmpDir }).solve({
      formula: pigeonhole(9, 8),
      proof: { maxBytes: 64 * 1024 },
    });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'proof-limit' });
    expect(outcome.stats.proof).toMatchObject({ bytes: 64 * 1024, result: 'limit' });
    await expectNothingLeft();
  });

  it('kills a check in progress on cancel and leaves no file or process', async () => {
    const slowChecker = await writeScript(dir, 'slow-drat-trim', 'sleep 30');
    const abort = new AbortController();
    const timer = setInterval(() => {
      if (childCommands().includes('slow-drat-trim')) abort.abort();
    }, 20);
    try {
      const outcome = await new KissatRunner({ tmpDir }).solve({
        formula: pigeonhole(6, 5),
        proof: { maxBytes: GiB, checker: slowChecker },
        signal: abort.signal,
        timeoutMs: 20_000,
      });
      expect(outcome.status).toBe('cancelled');
    } finally {
      clearInterval(timer);
    }
    await expectNothingLeft();
  });

  it('counts the check in the run time: a check past the timeout gives unknown/timeout', async () => {
    const slowChecker = await writeScript(dir, 'slow-drat-trim', 'sleep 30');
    const outcome = await new KissatRunner({ tmpDir }).solve({
      formula: pigeonhole(6, 5),
      proof: { maxBytes: GiB, checker: slowChecker },
      timeoutMs: 1500,
    });
    expect(outcome).toMatchObject({ status: 'unknown', reason: 'timeout' });
    await expectNothingLeft();
  });

  it('refuses a certified run of a solver without proofs', async () => {
    const runner = new MinisatRunner({ tmpDir });
    expect(runner.proofs).toBe(false);
    await expect(runner.solve({ formula: pigeonhole(3, 2), proof: { maxBytes: GiB } })).rejects.toThrow(
      /writes no proofs/,
    );
    await expectNothingLeft();
  });
});

describe(checkDratProof.name, () => {
  let dir: string;
  let cnf: string;
  let proof: Buffer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'satfarm-spec-'));
    cnf = join(dir, 'php.cnf');
    await writeFile(cnf, pigeonhole(7, 6).toDimacs());
    // A real kissat proof, binary DRAT.
    execFileSync('sh', ['-c', `kissat -q '${cnf}' '${join(dir, 'real.drat')}'; test $? -eq 20`]);
    proof = await readFile(join(dir, 'real.drat'));
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const check = async (name: string, bytes: Buffer | string) => {
    await writeFile(join(dir, name), bytes);
    return checkDratProof({ formulaFile: cnf, proofFile: join(dir, name) });
  };

  it('verifies the real proof', async () => {
    expect((await check('copy.drat', proof)).verdict).toBe('verified');
  });

  it('rejects the proof cut in half', async () => {
    const outcome = await check('half.drat', proof.subarray(0, proof.length >> 1));
    expect(outcome.verdict).toBe('rejected');
    expect(outcome.detail).toMatch(/NOT VERIFIED/);
  });

  it('rejects the proof with its lemmas past the first kilobyte dropped and an empty clause added', async () => {
    // Binary DRAT: 'a' <literals> 0; the empty clause is 'a' 0.
    const forged = Buffer.concat([proof.subarray(0, 1024), Buffer.from([0x61, 0x00])]);
    expect((await check('forged.drat', forged)).verdict).toBe('rejected');
  });

  it('verifies the empty proof of a formula with an empty clause (drat-trim exits 1 there)', async () => {
    const trivial = join(dir, 'trivial.cnf');
    await writeFile(trivial, 'p cnf 2 2\n0\n1 2 0\n');
    await writeFile(join(dir, 'empty.drat'), '');
    expect((await checkDratProof({ formulaFile: trivial, proofFile: join(dir, 'empty.drat') })).verdict).toBe(
      'verified',
    );
  });

  it('rejects a text proof that claims the empty clause at once', async () => {
    expect((await check('bogus.drat', '0\n')).verdict).toBe('rejected');
  });

  it('names a missing checker', async () => {
    await expect(
      checkDratProof({ formulaFile: cnf, proofFile: join(dir, 'copy.drat'), checker: join(dir, 'no-such') }),
    ).rejects.toThrow(/not found/);
  });
});
