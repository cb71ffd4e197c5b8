import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from './support/run-cli.js';

/** A 2x2 scramble whose optimum, in htm, is 6 moves (solve proves it: UNSAT at 5, SAT at 6). */
const SCRAMBLE = "U D' B2 L' U' B R F2 D2";
const INSTANCE = JSON.stringify({ size: 2, scramble: SCRAMBLE });
const OPTIMUM = 6;

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'satfarm-e2e-encode-'));
  writeFileSync(join(dir, 'cube.json'), INSTANCE);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** A DIMACS file's parts: its comment lines before `p cnf`, the header's counts, the clauses. */
interface Dimacs {
  comments: string[];
  vars: number;
  clauses: number;
  clauseLines: string[];
}

function readDimacs(text: string): Dimacs {
  const lines = text.split('\n');
  expect(lines.pop()).toBe(''); // ends with a newline
  const p = lines.findIndex((line) => line.startsWith('p '));
  expect(p).toBeGreaterThan(0);
  const [, cnf, vars, clauses] = lines[p]!.split(' ');
  expect(cnf).toBe('cnf');
  return {
    comments: lines.slice(0, p),
    vars: Number(vars),
    clauses: Number(clauses),
    clauseLines: lines.slice(p + 1),
  };
}

/** kissat's answer on a DIMACS file: 10 SAT, 20 UNSAT. */
function kissat(file: string): number | null {
  const run = spawnSync('/usr/bin/kissat', ['-q', file], { encoding: 'utf8' });
  return run.status;
}

describe('satfarm encode', () => {
  it("writes a 2x2 cube's formula at its optimum (SAT) and one below (UNSAT), as solve builds them", async () => {
    const [above, below, solve] = await Promise.all([
      runCli([
        'encode',
        'cube',
        '--input',
        join(dir, 'cube.json'),
        '--horizon',
        String(OPTIMUM),
        '-o',
        join(dir, 'at.cnf'),
      ]),
      runCli(['encode', 'cube', '--input', '-', '--horizon', String(OPTIMUM - 1)], { stdin: INSTANCE }),
      runCli(['solve', 'cube', '--input', INSTANCE, '--json', '--parallel', '1', '--no-trust-bound']),
    ]);
    expect(above.code, above.stderr).toBe(0);
    expect(above.stdout).toBe('');
    expect(below.code, below.stderr).toBe(0);
    writeFileSync(join(dir, 'below.cnf'), below.stdout);
    expect(readdirSync(dir).sort()).toEqual(['at.cnf', 'below.cnf', 'cube.json']);

    expect(kissat(join(dir, 'at.cnf'))).toBe(10);
    expect(kissat(join(dir, 'below.cnf'))).toBe(20);

    const at = readDimacs(readFileSync(join(dir, 'at.cnf'), 'utf8'));
    const sha = createHash('sha256')
      .update(JSON.stringify({ scramble: SCRAMBLE, size: 2 }))
      .digest('hex');
    expect(at.comments.slice(0, 8)).toEqual([
      'c satfarm 0.1.0 encode: the formula satfarm solve gives a solver',
      'c game: cube',
      `c instance: ${INSTANCE}`,
      `c instance sha256: ${sha} (of its canonical JSON, keys sorted)`,
      `c horizon: ${OPTIMUM}`,
      "c encoding: the game's defaults",
      `c SAT: a solution of at most ${OPTIMUM} moves (in the instance's metric) exists`,
      `c UNSAT: no solution of ${OPTIMUM} moves or fewer exists`,
    ]);
    for (const line of at.comments) expect(line).toMatch(/^c /);
    const atBelow = readDimacs(below.stdout);
    expect(atBelow.comments).toContain(`c horizon: ${OPTIMUM - 1}`);

    // The header's counts are the formula's: one clause a line, each ended by 0, literals in range.
    for (const formula of [at, atBelow]) {
      expect(formula.clauseLines).toHaveLength(formula.clauses);
      let highest = 0;
      for (const line of formula.clauseLines) {
        const lits = line.split(' ').map(Number);
        expect(lits.pop()).toBe(0);
        for (const lit of lits) highest = Math.max(highest, Math.abs(lit));
      }
      expect(highest).toBeLessThanOrEqual(formula.vars);
    }

    // solve ran the same formulas at those horizons: the same sizes, the same answers.
    expect(solve.code, solve.stderr).toBe(0);
    const report = JSON.parse(solve.stdout) as {
      horizon: number;
      horizons: Array<{ t: number; result: string; vars: number; clauses: number }>;
    };
    expect(report.horizon).toBe(OPTIMUM);
    const line = (t: number) => report.horizons.find((h) => h.t === t);
    expect(line(OPTIMUM)).toMatchObject({ result: 'sat', vars: at.vars, clauses: at.clauses });
    expect(line(OPTIMUM - 1)).toMatchObject({
      result: 'unsat',
      vars: atBelow.vars,
      clauses: atBelow.clauses,
    });
  });

  it('writes the one formula of a single-solve game, with no horizon', async () => {
    const run = await runCli(['encode', 'towers', '--input', 'examples/towers-5.txt']);
    expect(run.code, run.stderr).toBe(0);
    const formula = readDimacs(run.stdout);
    expect(formula.comments).toContain('c game: towers');
    expect(formula.comments).toContain('c horizon: none (one formula)');
    expect(formula.clauseLines).toHaveLength(formula.clauses);
  });

  it('refuses bad input with exit 2 naming the field, and leaves no file behind', async () => {
    const out = join(dir, 'refused', 'out.cnf');
    const cube = join(dir, 'cube.json');
    const cases: Array<[string[], RegExp]> = [
      [['encode', 'chess', '--input', cube, '--horizon', '3'], /bad input: game: unknown game 'chess'/],
      [['encode', 'cube', '--input', cube], /bad input: --horizon: required for cube/],
      [['encode', 'cube', '--input', cube, '--horizon', 'x'], /'--horizon <t>' argument 'x' is invalid/],
      [
        ['encode', 'cube', '--input', cube, '--horizon', '100001'],
        /bad input: --horizon: must be at most 100000/,
      ],
      [
        ['encode', 'cube', '--input', join(dir, 'missing.json'), '--horizon', '3'],
        /bad input: input: cannot read file/,
      ],
      [
        ['encode', 'cube', '--input', cube, '--horizon', '1000', '--max-formula-mib', '1'],
        /bad input: --max-formula-mib: the formula outgrows 1 MiB .* at horizon 1000/,
      ],
    ];
    mkdirSync(join(dir, 'refused'));
    const runs = await Promise.all(cases.map(([args]) => runCli([...args, '--output', out])));
    runs.forEach((run, i) => {
      expect(run.code, cases[i]![0].join(' ')).toBe(2);
      expect(run.stderr).toMatch(cases[i]![1]);
      expect(run.stdout).toBe('');
    });
    expect(readdirSync(join(dir, 'refused'))).toEqual([]);

    const nowhere = await runCli([
      'encode',
      'cube',
      '--input',
      cube,
      '--horizon',
      '3',
      '-o',
      join(dir, 'no', 'f.cnf'),
    ]);
    expect(nowhere.code).toBe(2);
    expect(nowhere.stderr).toMatch(/bad input: --output: cannot write '.*no\/f\.cnf' \(ENOENT\)/);
  });
});
