import { chmod, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { pigeonhole } from '@satfarm/cnf';
import { liveSolverCount, WORK_DIR_PREFIX } from '@satfarm/solver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { solveInstance, solveParsed } from './solve-instance.js';
import type { SolveReport } from './solve-report.js';
import { pigeonLadderGame } from './testing/pigeon-ladder.game.js';

/** The answer of a report that certification must not change. */
const answerOf = (r: SolveReport) => ({ status: r.status, horizon: r.horizon, bounds: r.bounds });

/** Work directories of certified runs left in the OS temp directory. */
const leftRunDirs = async (): Promise<string[]> =>
  (await readdir(tmpdir())).filter((name) => name.startsWith(WORK_DIR_PREFIX));

// Certified answers (docs/solvers.md#certified-answers) with real kissat and drat-trim.
describe('certify', () => {
  let dir: string;
  let before: string[];

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'satfarm-spec-'));
    before = await leftRunDirs();
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('gives the same optima as an uncertified solve, backed by checked proofs', async () => {
    const cases: Array<[string, unknown]> = [
      ['cube', { size: 2, scramble: "U D' B2 L' U' B R F2 D2" }],
      ['cube', { size: 2, scramble: "R U F' R2 U'" }],
      ['cube', { size: 2, scramble: "F R' U2 F' R" }],
      [
        'snake',
        {
          width: 5,
          height: 5,
          length: 2,
          body: [
            [2, 1],
            [2, 2],
          ],
          apples: [
            [0, 0],
            [4, 4],
          ],
          order: 'any',
        },
      ],
    ];
    for (const [game, input] of cases) {
      const plain = await solveInstance(game, input, { parallelism: 2 });
      const certified = await solveInstance(game, input, { parallelism: 2, certify: true });
      expect(plain.status).toBe('optimal');
      expect(answerOf(certified)).toEqual(answerOf(plain));
      expect(plain.certified).toBeUndefined();
      expect(certified.certified).toBe(true);
      const below = certified.horizons.find((h) => h.t === certified.horizon! - 1);
      if (certified.horizon! > 0)
        expect(below).toMatchObject({ result: 'unsat', proof: { result: 'verified' } });
      for (const h of certified.horizons.filter((l) => l.result === 'unsat'))
        expect(h.proof?.bytes).toBeGreaterThanOrEqual(0);
    }
    expect(await leftRunDirs()).toEqual(before);
  });

  it("certifies a pigeonhole CNF's UNSAT answer", async () => {
    const report = await solveInstance('cnf', pigeonhole(8, 7).toDimacs(), { certify: true });
    expect(report.status).toBe('unsatisfiable');
    expect(report.certified).toBe(true);
    expect(report.horizons[0]).toMatchObject({ result: 'unsat', proof: { result: 'verified' } });
    expect(report.horizons[0]!.proof!.bytes).toBeGreaterThan(10_000);
  });

  it("certifies a puzzle's uniqueness by the proof of the second solve's UNSAT answer", async () => {
    const report = await solveInstance('towers', '5://3/3///3/1//////2/2///4//,k3m', {
      unique: true,
      certify: true,
    });
    expect(report).toMatchObject({ status: 'satisfiable', unique: true, certified: true });
    expect(report.uniqueProof?.result).toBe('verified');
  });

  it('catches a solver that answers UNSAT wrongly: no optimum, the horizons unknown/proof-rejected', async () => {
    // The liar says UNSATISFIABLE to every formula and writes an empty proof (its last argument).
    const liar = join(dir, 'lying-kissat');
    await writeFile(
      liar,
      '#!/bin/sh\n[ "$1" = --version ] && { echo 4.0.2; exit 0; }\nproof=\nfor a; do proof=$a; done\nif [ -n "$proof" ]; then : > "$proof"; else cat > /dev/null; fi\necho "s UNSATISFIABLE"\nexit 20\n',
    );
    await chmod(liar, 0o755);
    const options = { solverRunner: { binary: liar }, parallelism: 2 };
    const fooled = await solveParsed(pigeonLadderGame, { pigeons: 3 }, options);
    expect(fooled.status).toBe('unsatisfiable');
    const caught = await solveParsed(pigeonLadderGame, { pigeons: 3 }, { ...options, certify: true });
    expect(caught.status).toBe('unknown');
    expect(caught.certified).toBe(false);
    expect(caught.horizons.filter((l) => l.t >= 2).length).toBeGreaterThan(0);
    // With 0 or 1 hole, unit propagation refutes the formula: the empty proof is a proof there.
    for (const h of caught.horizons.filter((l) => l.t < 2 && l.result === 'unsat'))
      expect(h.proof?.result).toBe('verified');
    for (const h of caught.horizons.filter((l) => l.t >= 2)) {
      expect(h).toMatchObject({ result: 'unknown', reason: 'proof-rejected', proof: { result: 'rejected' } });
    }
    const single = await solveInstance('cnf', 'p cnf 2 1\n1 2 0\n', {
      certify: true,
      solverRunner: { binary: liar },
    });
    expect(single).toMatchObject({ status: 'unknown', certified: false });
    expect(single.horizons[0]).toMatchObject({ result: 'unknown', reason: 'proof-rejected' });
    expect(await leftRunDirs()).toEqual(before);
    expect(liveSolverCount()).toBe(0);
  });

  it('gives unknown/proof-limit when a proof outgrows proofLimitMiB, and leaves no file', async () => {
    const report = await solveInstance('cnf', pigeonhole(10, 9).toDimacs(), {
      certify: true,
      proofLimitMiB: 1,
    });
    expect(report).toMatchObject({ status: 'unknown', certified: false });
    expect(report.horizons[0]).toMatchObject({
      result: 'unknown',
      reason: 'proof-limit',
      proof: { bytes: 1024 * 1024, result: 'limit' },
    });
    expect(await leftRunDirs()).toEqual(before);
  });

  it('refuses what it cannot certify before any solver runs', async () => {
    await expect(
      solveInstance('cnf', 'p cnf 1 1\n1 0\n', { certify: true, solver: 'minisat' }),
    ).rejects.toThrow(/^solver: minisat writes no proofs/);
    await expect(
      solveInstance('cube', { size: 2, scramble: 'R U' }, { certify: true, split: 0 }),
    ).rejects.toThrow(/^split: cannot be certified/);
    await expect(solveInstance('cnf', 'p cnf 1 1\n1 0\n', { proofLimitMiB: 5 })).rejects.toThrow(
      /^proofLimitMiB: applies to certified solves/,
    );
  });
});
