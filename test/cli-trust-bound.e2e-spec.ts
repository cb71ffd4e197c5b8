import { describe, expect, it } from 'vitest';

import { runCli } from './support/run-cli.js';

/**
 * The trusted bound (`--trust-bound`, the cube's default): a game whose lower bound an exhaustive
 * search proves (the cube's breadth-first distances and the search over them) starts its sweep at
 * the bound, so an optimum equal to it needs no solver's UNSAT run below it; the report says what
 * proves the bound. `--no-trust-bound` starts one below.
 */
interface Report {
  status: string;
  horizon?: number;
  bounds: { lower: number; upper?: number };
  boundProof?: string;
  horizons: Array<{ t: number; result: string; by?: string }>;
}

async function solve(game: string, input: object, args: string[] = []): Promise<Report> {
  const run = await runCli(['solve', game, '--input', JSON.stringify(input), '--json', ...args]);
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as Report;
}

// Three moves from solved, inside the goal perimeter: the bound is the exact distance, tables or not.
const CUBE = { size: 3, scramble: 'R U F' };

describe('solve --trust-bound', () => {
  it('proves the optimum at the bound without the UNSAT run below it, by default', async () => {
    for (const args of [['--trust-bound'], []]) {
      const trusted = await solve('cube', CUBE, args);
      expect(trusted).toMatchObject({ status: 'optimal', horizon: 3, bounds: { lower: 3, upper: 3 } });
      expect(trusted.boundProof).toMatch(/breadth-first/);
      expect(trusted.horizons.filter((h) => h.result === 'unsat')).toEqual([]);
    }

    const proven = await solve('cube', CUBE, ['--no-trust-bound']);
    expect(proven).toMatchObject({ status: 'optimal', horizon: 3, bounds: { lower: 3, upper: 3 } });
    expect(proven.boundProof).toBeUndefined();
    expect(proven.horizons).toContainEqual(expect.objectContaining({ t: 2, result: 'unsat' }));
  });

  it("starts a 3x3 sweep at the optimum the bound's search proves, beyond what the tables give", async () => {
    // The pattern tables bound this scramble at 8; its optimum is 9 (bench/results/portfolio.json).
    const scramble = "L D' L2 D R2 D2 U' L2 F2";
    // Its only horizon: nothing above a length the search found a plan of can be the optimum.
    const report = await solve('cube', { size: 3, scramble }, ['--parallel', '2']);
    expect(report).toMatchObject({ status: 'optimal', horizon: 9, bounds: { lower: 9, upper: 9 } });
    expect(report.boundProof).toMatch(/search/);
    // The search's plan is the quick plan: replayed, it answers the only horizon, no solver run.
    expect(report.horizons.map((h) => [h.t, h.result, h.by])).toEqual([[9, 'sat', 'quick plan']]);

    // Without it, the solver finds a plan at that one horizon.
    const solved = await solve('cube', { size: 3, scramble }, ['--parallel', '2', '--no-quick-plan']);
    expect(solved).toMatchObject({ status: 'optimal', horizon: 9, bounds: { lower: 9, upper: 9 } });
    expect(solved.horizons.map((h) => [h.t, h.result, h.by])).toEqual([[9, 'sat', undefined]]);
  });

  it('refuses it for a game whose bound no search proves (exit 2, naming it)', async () => {
    const run = await runCli([
      'solve',
      'snake',
      '--input',
      JSON.stringify({ width: 4, height: 4, length: 2, start: [0, 0], apples: [[3, 3]] }),
      '--trust-bound',
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/trustBound: snake's lower bound is not proven by a search/);
  });
});
