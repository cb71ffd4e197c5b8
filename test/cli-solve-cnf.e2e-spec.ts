import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { descendants, isAlive } from './support/process-table.js';
import { type CliRun, runCli } from './support/run-cli.js';
import { waitUntil } from './support/waits.js';

let dir: string;

/** An independent check of a model against DIMACS text: every clause has a true literal. */
function satisfies(dimacs: string, model: number[]): boolean {
  const truth = new Set(model.filter((l) => l > 0));
  const lits = dimacs
    .split('\n')
    .filter((line) => line.trim() !== '' && !/^[cp%]/.test(line.trim()))
    .join(' ')
    .trim()
    .split(/\s+/)
    .map(Number);
  let clauseOk = false;
  for (const lit of lits) {
    if (lit === 0) {
      if (!clauseOk) return false;
      clauseOk = false;
    } else if (truth.has(lit) === lit > 0) clauseOk = true;
  }
  return true;
}

async function generate(name: string, args: string[]): Promise<string> {
  const run = await runCli(['generate', 'cnf', ...args]);
  expect(run.code).toBe(0);
  const path = join(dir, name);
  writeFileSync(path, run.stdout);
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'satfarm-e2e-cli-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('satfarm solve cnf', () => {
  it.each([6, 7, 8, 9])(
    'proves the pigeonhole formula PHP(n+1, n) for n = %i unsatisfiable with exit code 1',
    async (n) => {
      const file = await generate(`php${n}.cnf`, ['--family', 'php', '--holes', String(n)]);
      const run = await runCli(['solve', 'cnf', '--input', file, '--json']);
      expect(run.code).toBe(1);
      const report = JSON.parse(run.stdout) as {
        status: string;
        verified: boolean;
        stats: { vars: number; clauses: number };
      };
      expect(report.status).toBe('unsatisfiable');
      expect(report.verified).toBe(false);
      expect(report.stats.vars).toBe((n + 1) * n);
    },
  );

  it('answers a satisfiable random 3-SAT formula with a model that satisfies every clause', async () => {
    // Below the threshold (ratio 3.5) random 3-SAT is satisfiable with high probability; seed fixed.
    const file = await generate('r3sat.cnf', [
      '--family',
      'random',
      '--vars',
      '150',
      '--ratio',
      '3.5',
      '--seed',
      '7',
    ]);
    const run = await runCli(['solve', 'cnf', '--input', file, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as {
      status: string;
      verified: boolean;
      solution: { model: number[] };
    };
    expect(report.status).toBe('satisfiable');
    expect(report.verified).toBe(true);
    expect(report.solution.model).toHaveLength(150);
    expect(satisfies(readFileSync(file, 'utf8'), report.solution.model)).toBe(true);
  });

  it('decides random 3-SAT at the threshold and agrees with cadical and minisat', async () => {
    const file = await generate('r3sat-426.cnf', [
      '--family',
      'random',
      '--vars',
      '200',
      '--ratio',
      '4.26',
      '--seed',
      '3',
    ]);
    const answers = await Promise.all(
      ['kissat', 'cadical', 'minisat'].map(async (solver) => {
        const run = await runCli(['solve', 'cnf', '--input', file, '--json', '--solver', solver]);
        return (JSON.parse(run.stdout) as { status: string }).status;
      }),
    );
    expect(new Set(answers).size).toBe(1);
    expect(['satisfiable', 'unsatisfiable']).toContain(answers[0]);
  });

  it('reads DIMACS from standard input with --input -', async () => {
    const run = await runCli(['solve', 'cnf', '--input', '-', '--json'], {
      stdin: 'p cnf 2 2\n1 2 0\n-1 0\n',
    });
    expect(run.code).toBe(0);
    expect((JSON.parse(run.stdout) as { solution: { model: number[] } }).solution.model).toEqual([-1, 2]);
  });

  it('with --unique proves a one-model formula unique and shows a second model otherwise', async () => {
    const one = await runCli(['solve', 'cnf', '--input', '-', '--json', '--unique'], {
      stdin: 'p cnf 2 2\n1 0\n-1 -2 0\n',
    });
    expect(one.code).toBe(0);
    expect(JSON.parse(one.stdout)).toMatchObject({ unique: true, solution: { model: [1, -2] } });
    const two = await runCli(['solve', 'cnf', '--input', '-', '--json', '--unique'], {
      stdin: 'p cnf 2 1\n1 2 0\n',
    });
    const report = JSON.parse(two.stdout) as {
      unique: boolean;
      solution: { model: number[] };
      secondSolution: { model: number[] };
    };
    expect(report.unique).toBe(false);
    expect(report.secondSolution.model).not.toEqual(report.solution.model);
    expect(satisfies('p cnf 2 1\n1 2 0\n', report.secondSolution.model)).toBe(true);
  });

  it('prints a human view without --json', async () => {
    const run = await runCli(['solve', 'cnf', '--input', '-'], { stdin: 'p cnf 1 2\n1 0\n-1 0\n' });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('cnf: unsatisfiable');
  });
});

describe('satfarm solve: bad input exits 2 with a message naming what is wrong', () => {
  const cases: Array<[string, string[], string | undefined, RegExp]> = [
    ['malformed DIMACS', ['solve', 'cnf', '--input', '-'], 'p cnf 2 1\n1 x 0\n', /line 2/],
    ['a literal out of range', ['solve', 'cnf', '--input', '-'], 'p cnf 2 1\n1 3 0\n', /out of range/],
    ['a missing header', ['solve', 'cnf', '--input', '-'], '1 2 0\n', /header/i],
    ['a wrong clause count', ['solve', 'cnf', '--input', '-'], 'p cnf 2 3\n1 2 0\n', /clause/i],
    ['an unknown game', ['solve', 'chess', '--input', '-'], 'p cnf 1 1\n1 0\n', /game.*chess/],
    [
      'an unreadable file',
      ['solve', 'cnf', '--input', '/nonexistent/x.cnf'],
      undefined,
      /input.*cannot read.*ENOENT/,
    ],
    ['an empty input', ['solve', 'cnf', '--input', '-'], '', /input.*empty/],
    ['a bad --parallel', ['solve', 'cnf', '--input', '-', '--parallel', '0'], 'p cnf 1 1\n1 0\n', /parallel/],
    [
      'an unknown solver',
      ['solve', 'cnf', '--input', '-', '--solver', 'glucose'],
      'p cnf 1 1\n1 0\n',
      /solver/,
    ],
    ['an unknown option', ['solve', 'cnf', '--bogus'], undefined, /bogus/],
    [
      'a --timeout longer than a timer can wait',
      ['solve', 'cnf', '--input', '-', '--timeout', '3000000'],
      'p cnf 1 1\n1 0\n',
      /--timeout.*at most 604800/,
    ],
    [
      'a --patience longer than a timer can wait',
      ['solve', 'cube', '--input', '-', '--policy', 'probe', '--patience', '3000000'],
      '{"size": 2, "scramble": "R"}',
      /--patience.*at most 604800/,
    ],
    [
      'a horizon far above the largest one (its formula would not fit in memory)',
      ['solve', 'cube', '--input', '-', '--max-horizon', '10000000', '--min-horizon', '9999999'],
      '{"size": 2, "scramble": "R"}',
      /^satfarm: bad input: maxHorizon: must be at most 100000, got 10000000\n$/,
    ],
    [
      'a Snake walk far longer than the largest horizon',
      ['solve', 'snake', '--input', '-'],
      '{"width": 3, "height": 3, "survive": 1000000000000}',
      /^satfarm: bad input: survive: must be at most 100000, the largest horizon; got 1000000000000\n$/,
    ],
    [
      'a cube instance with a misspelt field',
      ['solve', 'cube', '--input', '-'],
      '{"size": 3, "scramble": "R", "metirc": "qtm"}',
      /bad input: metirc: unknown field/,
    ],
    ...[
      ['cnf', '--policy', 'probe'],
      ['cnf', '--presets'],
      ['cnf', '--max-horizon', '3'],
      ['towers', '--no-presets'],
      ['towers', '--no-quick-plan'],
      ['towers', '--patience', '1'],
    ].map(([game, ...flag]): [string, string[], string | undefined, RegExp] => [
      `${flag[0]} for ${game}, a single-solve game`,
      ['solve', game!, '--input', game === 'cnf' ? 'examples/php-6.cnf' : 'examples/towers-5.txt', ...flag],
      undefined,
      new RegExp(`bad input: ${flag[0]}: applies to planning games with a horizon sweep, not to ${game}`),
    ]),
    [
      '--patience under a policy without patient probes',
      ['solve', 'cube', '--input', '-', '--policy', 'leap', '--patience', '1'],
      '{"size": 2, "scramble": "R"}',
      /bad input: --patience: applies to the policies with patient probes \(probe, bracket\), not to leap/,
    ],
  ];
  it.each(cases)('%s', async (_name, args, stdin, message) => {
    const run = await runCli(args, { stdin });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(run.stdout).toBe('');
  });
});

/** Starts `solve cnf` on `file` and waits until its kissat runs; returns the pids seen. */
async function solveUntilKissatRuns(
  file: string,
): Promise<{ cli: number; running: Promise<CliRun>; seen: Set<number> }> {
  const seen = new Set<number>();
  let cli = 0;
  const running = runCli(['solve', 'cnf', '--input', file, '--json'], { onSpawn: (pid) => (cli = pid) });
  // A solver's start has no event outside the CLI: only the process table shows it.
  await waitUntil(
    () => {
      for (const row of descendants(cli)) if (row.command === 'kissat') seen.add(row.pid);
      return seen.size > 0;
    },
    { what: 'kissat under the CLI', timeoutMs: 10_000, everyMs: 50 },
  );
  expect(seen.size).toBeGreaterThan(0);
  return { cli, running, seen };
}

describe('satfarm solve: interruption', () => {
  it('on SIGINT stops, exits 3 and leaves no solver process behind', async () => {
    const file = await generate('php12.cnf', ['--family', 'php', '--holes', '12']);
    const { cli, running, seen } = await solveUntilKissatRuns(file);
    process.kill(cli, 'SIGINT');
    const run = await running;
    expect(run.code, run.stderr).toBe(3);
    expect((JSON.parse(run.stdout) as { status: string }).status).toBe('unknown');
    for (const pid of seen) expect(isAlive(pid)).toBe(false);
  });

  it('killed with SIGKILL, where no handler can run, still leaves no solver behind', async () => {
    const file = await generate('php12-kill.cnf', ['--family', 'php', '--holes', '12']);
    const { cli, running, seen } = await solveUntilKissatRuns(file);
    process.kill(cli, 'SIGKILL');
    const run = await running;
    expect(run.signal).toBe('SIGKILL');
    // The kernel delivers the parent-death signal at once; allow a moment for it to be reaped.
    await waitUntil(() => ![...seen].some(isAlive), { what: 'the solvers to end', timeoutMs: 2_000 }).catch(
      () => undefined,
    );
    for (const pid of seen) expect(isAlive(pid)).toBe(false);
  });
});
