import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { runCli } from './support/run-cli.js';

/**
 * `solve --portfolio N`: a horizon races other solver configurations on the slots no horizon
 * wants, the first answer stands, the others stop, and the race is recorded for the next solve.
 */
let dir: string;
let record: string;
let env: NodeJS.ProcessEnv;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'satfarm-portfolio-'));
  record = join(dir, 'record.json');
  env = { ...process.env, SATFARM_PORTFOLIO_RECORD: record };
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Line {
  t: number;
  result: string;
  config?: string;
  raced?: Array<{ config: string; result: string; ms: number }>;
}

async function solve(args: string[]): Promise<{ status: string; horizon?: number; horizons: Line[] }> {
  const run = await runCli(['solve', ...args, '--json'], { env });
  expect(run.code, run.stderr).toBeLessThan(2);
  return JSON.parse(run.stdout) as { status: string; horizon?: number; horizons: Line[] };
}

describe('solve --portfolio', () => {
  it('races a single solve on the spare slots, names who answered, and records the race', async () => {
    const php = join(process.cwd(), 'examples/php-8.cnf');
    const report = await solve(['cnf', '--input', php, '--parallel', '3', '--portfolio', '3']);
    expect(report.status).toBe('unsatisfiable');
    const [line] = report.horizons;
    expect(line!.result).toBe('unsat');
    expect(line!.config).toMatch(/^(kissat|cadical)\/(default|sat|unsat)\/\d+$/);
    expect(line!.raced).toHaveLength(2);
    const configs = [line!.config, ...line!.raced!.map((r) => r.config)];
    expect(new Set(configs).size).toBe(3);
    // The record now holds the three, one of them the winner.
    const tallies = (
      JSON.parse(readFileSync(record, 'utf8')) as Record<
        string,
        Record<string, { runs: number; wins: number }>
      >
    )['cnf/either']!;
    expect(Object.keys(tallies).sort()).toEqual([...configs].sort());
    expect(tallies[line!.config!]).toMatchObject({ runs: 1, wins: 1 });
  });

  it('learns from the record: once every configuration has been tried, the one that won most races beside the horizon’s own', async () => {
    // Every candidate tried ten times (kissat's presets with seeds 0 to 3, cadical's presets); one won them all.
    const candidates = [
      ...['default', 'sat', 'unsat'].flatMap((preset) =>
        [0, 1, 2, 3].map((seed) => `kissat/${preset}/${seed}`),
      ),
      ...['default', 'sat', 'unsat'].map((preset) => `cadical/${preset}/0`),
    ];
    const tallies = Object.fromEntries(
      candidates.map((c) => [
        c,
        c === 'kissat/unsat/2' ? { runs: 10, wins: 10, winMs: 900 } : { runs: 10, wins: 0, winMs: 0 },
      ]),
    );
    const learned = join(dir, 'learned.json');
    writeFileSync(learned, JSON.stringify({ 'cnf/either': tallies }));
    const run = await runCli(
      ['solve', 'cnf', '--input', 'examples/php-7.cnf', '--parallel', '2', '--portfolio', '2', '--json'],
      { env: { ...env, SATFARM_PORTFOLIO_RECORD: learned } },
    );
    expect(run.code, run.stderr).toBe(1);
    const [line] = (JSON.parse(run.stdout) as { horizons: Line[] }).horizons;
    const raced = [line!.config, ...line!.raced!.map((r) => r.config)].sort();
    expect(raced).toEqual(['kissat/default/0', 'kissat/unsat/2']);
  });

  it('gives a planning game the same optimum as without it, and off leaves no trace of a race', async () => {
    const cube = JSON.stringify({ size: 2, scramble: "R U F' R2 U' F R U2" });
    const off = await solve(['cube', '--input', cube, '--parallel', '3', '--portfolio', 'off']);
    const on = await solve(['cube', '--input', cube, '--parallel', '3', '--portfolio', '3']);
    expect(on.status).toBe('optimal');
    expect(on.horizon).toBe(off.horizon);
    expect(off.horizons.every((h) => h.config === undefined && h.raced === undefined)).toBe(true);
  });

  it('refuses a portfolio of no configuration, or of a word, naming the flag', async () => {
    for (const value of ['0', 'some']) {
      const run = await runCli(['solve', 'cnf', '--input', 'examples/php-7.cnf', '--portfolio', value], {
        env,
      });
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(/portfolio/);
    }
  });
});
