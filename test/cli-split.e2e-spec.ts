import { describe, expect, it } from 'vitest';

import { runCli } from './support/run-cli.js';

/**
 * `solve --split-after SECONDS`: a horizon still unanswered after that long is split into cubes by
 * its first moves; every cube refuted proves it UNSAT, a cube's plan joined to its prefix answers
 * it. Seven moves, seven its fewest: at 6 some cubes need a solver, the bound refutes the others.
 */
const CUBE = JSON.stringify({ size: 3, scramble: "R U F D2 L B R'" });
/** The small pattern databases bound the cubes: the 3x3 tables would refute every cube of 6 alone. */
const SMALL_BOUNDS = { ...process.env, SATFARM_PDB_DIR: 'off' };

interface Split {
  depth: number;
  cubes: number;
  refuted: number;
  bound: number;
  unanswered: number;
  answeredBy?: { index: number; prefix: { moves: string[] } };
  ms: number;
  afterMs?: number;
}

interface Report {
  status: string;
  horizon?: number;
  solution?: { moves: string[] };
  verified: boolean;
  horizons: Array<{ t: number; result: string; split?: Split }>;
}

async function solve(args: string[]): Promise<Report> {
  const run = await runCli(['solve', 'cube', '--input', CUBE, '--parallel', '2', '--json', ...args], {
    env: SMALL_BOUNDS,
  });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Report;
}

describe('solve --split-after', () => {
  it('gives the same optimum split at once, the horizon below proven by every cube refuted', async () => {
    const whole = await solve([]);
    const split = await solve(['--split-after', '0']);
    expect(whole).toMatchObject({ status: 'optimal', horizon: 7 });
    expect(split).toMatchObject({ status: 'optimal', horizon: 7, verified: true });
    expect(whole.horizons.every((h) => h.split === undefined)).toBe(true);

    const below = split.horizons.find((h) => h.t === 6)!;
    expect(below.result).toBe('unsat');
    expect(below.split).toMatchObject({ depth: 1, cubes: 18, refuted: 18, unanswered: 0 });
    // Split at once: no whole run first.
    expect(below.split!.afterMs).toBeUndefined();
    expect(below.split!.bound).toBeLessThan(18);

    const at = split.horizons.find((h) => h.t === 7)!;
    expect(at.result).toBe('sat');
    const { answeredBy } = at.split!;
    expect(answeredBy).toBeDefined();
    // The plan begins with the prefix of the cube that answered.
    expect(split.solution!.moves.slice(0, answeredBy!.prefix.moves.length)).toEqual(answeredBy!.prefix.moves);
    expect(split.solution!.moves).toHaveLength(7);
  });

  it('splits a horizon only once it has run whole that long', async () => {
    const report = await solve(['--split-after', '0.2']);
    expect(report).toMatchObject({ status: 'optimal', horizon: 7 });
    // The optimum's horizon takes over a second of solver time whole: it was split.
    expect(report.horizons.find((h) => h.t === 7)!.split?.afterMs).toBeGreaterThanOrEqual(200);
    for (const h of report.horizons.filter((line) => line.split !== undefined))
      expect(h.split!.afterMs).toBeGreaterThanOrEqual(200);
  });

  it('shows the split in the human report', async () => {
    const run = await runCli(['solve', 'cube', '--input', CUBE, '--parallel', '2', '--split-after', '0'], {
      env: SMALL_BOUNDS,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /t=\s+6\s+unsat .*\[split at once: 18 cubes at depth 1, 18 refuted \(\d+ by bound\); \d+ ms\]/,
    );
    expect(run.stdout).toMatch(
      /t=\s+7\s+sat .*\[split at once: 18 cubes at depth 1, .*plan from cube \d+; \d+ ms\]/,
    );
  });

  it('refuses a negative wait and a game with one solve, naming the flag', async () => {
    const negative = await runCli(['solve', 'cube', '--input', CUBE, '--split-after', '-1']);
    expect(negative.code).toBe(2);
    expect(negative.stderr).toMatch(/split-after/);
    const puzzle = await runCli(['solve', 'cnf', '--input', 'examples/php-7.cnf', '--split-after', '5']);
    expect(puzzle.code).toBe(2);
    expect(puzzle.stderr).toMatch(/--split-after.*applies to planning games/);
  });
});
