import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { gameById, Tile } from '@satfarm/games';

import { descendants } from './support/process-table.js';
import { type CliRun, runCli } from './support/run-cli.js';
import { waitUntil } from './support/waits.js';

const hexahopGame = gameById('hexahop');

describe('satfarm solve hexahop', () => {
  it('solves a real level by display name in its fewest moves, verified, with the score beside par', async () => {
    const run = await runCli(['solve', 'hexahop', '--input', '{"level": "Hive"}', '--json']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as {
      status: string;
      horizon: number;
      verified: boolean;
      bounds: { lower: number; upper: number };
      solution: { moves: string[]; score: number };
    };
    expect(report.status).toBe('optimal');
    expect(report.verified).toBe(true);
    expect(report.solution.moves).toHaveLength(report.horizon);
    expect(report.bounds.lower).toBe(report.bounds.upper);
    expect(report.solution.moves.every((m) => ['N', 'NE', 'SE', 'S', 'SW', 'NW', 'J'].includes(m))).toBe(
      true,
    );
    expect(report.solution.score).toBeGreaterThanOrEqual(report.horizon);
  });

  it('accepts the file name and the number of a level', async () => {
    for (const level of ['"hive"', '2']) {
      const run = await runCli(['solve', 'hexahop', '--input', `{"level": ${level}}`, '--json']);
      expect(run.code, run.stderr).toBe(0);
      expect((JSON.parse(run.stdout) as { status: string }).status).toBe('optimal');
    }
  });

  it("solves on the game's default solver, cadical, unless --solver names another", async () => {
    const solverOf = async (...flags: string[]): Promise<string> => {
      const run = await runCli(['solve', 'hexahop', '--input', '{"level": "Hive"}', '--json', ...flags]);
      expect(run.code, run.stderr).toBe(0);
      return (JSON.parse(run.stdout) as { stats: { solver: string } }).stats.solver;
    };
    expect(await solverOf()).toMatch(/^cadical/);
    expect(await solverOf('--solver', 'kissat')).toMatch(/^kissat/);
  });

  it('exits 2 naming the field for a misspelt level, and for a tile type not supported yet', async () => {
    const misspelt = await runCli(['solve', 'hexahop', '--input', '{"level": "Orbitall"}', '--json']);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toMatch(/level.*did you mean 'Orbital'/);
    const edge = await runCli([
      'solve',
      'hexahop',
      '--input',
      '{"map": ["og", "S."], "start": [0, 0]}',
      '--json',
    ]);
    expect(edge.code).toBe(2);
    expect(edge.stdout).toBe('');
    expect(edge.stderr).toMatch(
      /map.*tile type 'spinner \(next to the edge of the map\)', which is not supported yet/,
    );
  });
});

describe('satfarm solve hexahop: a plan not proven optimal', () => {
  // Forced Fire: the beam search finds a 49-move plan at once; proving the optimum takes minutes.
  const input = ['--input', '{"level": "Forced Fire"}', '--json', '--parallel', '1'];
  type Report = { status: string; solution?: { moves: string[] }; bounds: { lower: number; upper: number } };

  function expectUnprovenPlan(run: CliRun): void {
    expect(run.code, run.stderr).toBe(3);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.status).toBe('satisfiable');
    expect(report.solution?.moves.length).toBe(report.bounds.upper);
    expect(report.bounds.lower).toBeLessThan(report.bounds.upper);
  }

  it('exits 3 at --timeout, with the plan in the report', async () => {
    // The beam gives up at the timeout too; it needs 1 to 2 s here on a loaded machine.
    expectUnprovenPlan(await runCli(['solve', 'hexahop', ...input, '--timeout', '6']));
  });

  it('keeps to a --timeout shorter than the beam search, without a plan', async () => {
    // Had the beam run on past the timeout, its plan would be in the report (satisfiable).
    const run = await runCli(['solve', 'hexahop', ...input, '--timeout', '0.2']);
    expect(run.code, run.stderr).toBe(3);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'unknown' });
  });

  it('exits 3 on SIGTERM, with the plan in the report', async () => {
    let cli = 0;
    const running = runCli(['solve', 'hexahop', ...input], { onSpawn: (pid) => (cli = pid) });
    // The solver starts after the quick plan: once one has run, the plan is in the sweep. Only
    // the process table shows it start.
    const solverSeen = await waitUntil(() => descendants(cli).some((row) => row.command === 'cadical'), {
      what: 'cadical under the CLI',
      timeoutMs: 15_000,
      everyMs: 50,
    }).catch(() => false);
    expect(solverSeen).toBe(true);
    process.kill(cli, 'SIGTERM');
    expectUnprovenPlan(await running);
  });
});

describe('satfarm solve hexahop --policy bracket --patience', () => {
  it('proves the same optimum when its probes give way and run again', async () => {
    const input = ['--input', '{"level": "Triangular"}', '--json'];
    // A patience of 1 ms: every probe gives way before its formula is even encoded, and runs again
    // with twice its time, until the climb from the lower bound runs it without a limit.
    const plain = await runCli(['solve', 'hexahop', ...input]);
    const patient = await runCli([
      'solve',
      'hexahop',
      ...input,
      '--policy',
      'bracket',
      '--patience',
      '0.001',
    ]);
    expect(patient.code, patient.stderr).toBe(0);
    type Report = { status: string; horizon: number; horizons: { t: number; runs?: number }[] };
    const [a, b] = [plain, patient].map((r) => JSON.parse(r.stdout) as Report);
    expect(b!.status).toBe('optimal');
    expect(b!.horizon).toBe(a!.horizon);
    expect(b!.horizons.some((h) => (h.runs ?? 1) >= 2)).toBe(true);
    expect(a!.horizons.every((h) => h.runs === undefined)).toBe(true);
  });

  it('exits 2 naming the flag for a patience that is not a positive number of seconds', async () => {
    const run = await runCli(['solve', 'hexahop', '--input', '{"level": "Hive"}', '--patience', '0']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--patience/);
  });
});

describe('satfarm solve hexahop --min-horizon', () => {
  type Report = {
    status: string;
    horizon: number;
    bounds: object;
    horizons: { t: number; result: string }[];
  };
  const solve = async (...flags: string[]): Promise<Report> => {
    const run = await runCli(['solve', 'hexahop', '--input', '{"level": "Lure"}', '--json', ...flags]);
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as Report;
  };

  it('starts the sweep there and proves the same optimum by the UNSAT just below it', async () => {
    const plain = await solve();
    const hinted = await solve('--min-horizon', String(plain.horizon));
    expect(hinted).toMatchObject({ status: 'optimal', horizon: plain.horizon, bounds: plain.bounds });
    expect(hinted.horizons.find((h) => h.t === plain.horizon - 1)?.result).toBe('unsat');
    expect(Math.min(...hinted.horizons.map((h) => h.t))).toBe(plain.horizon - 1);
    expect(Math.min(...plain.horizons.map((h) => h.t))).toBeLessThan(plain.horizon - 1);
  });

  it('is not misled by a value above the optimum', async () => {
    const plain = await solve();
    const wrong = await solve('--max-horizon', '30', '--min-horizon', String(plain.horizon + 4));
    expect(wrong).toMatchObject({ status: 'optimal', horizon: plain.horizon, bounds: plain.bounds });
  });

  it('exits 2 naming the field for a value above the largest horizon', async () => {
    const run = await runCli(['solve', 'hexahop', '--input', '{"level": "Lure"}', '--min-horizon', '500']);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/minHorizon/);
  });
});

describe('satfarm levels hexahop', () => {
  it('lists the levels with par, difficulty, tile types and support', async () => {
    const run = await runCli(['levels', 'hexahop']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/Orbital/);
    expect(run.stdout).toMatch(/Laser Tiles/);
    expect(run.stdout).toMatch(/laser/);
    // One line per level under a header, every column lined up: each row's par ends where the
    // header's does, whatever the length of the names before it (chapters like 1_trampoline).
    const [header, ...rows] = run.stdout.trimEnd().split('\n');
    expect(rows).toHaveLength(100);
    const parEnd = header!.indexOf(' par') + ' par'.length;
    for (const row of rows) expect(row.slice(0, parEnd), row).toMatch(/ \d+$/);
    expect(rows.find((r) => r.includes('Mini Island'))).toMatch(
      / 1_trampoline +34 +3 +yes +normal,green,trampoline$/,
    );
  });
});

describe('satfarm solve hexahop: the quick plan', () => {
  it("starts the sweep from the beam search's plan, says so, and leaves it out with --no-quick-plan", async () => {
    const input = ['--input', '{"level": "Hive"}'];
    type Line = {
      t: number;
      result: string;
      by?: string;
      solverCpuMs?: number;
      solverPeakRssKiB?: number;
      vars?: number;
      clauses?: number;
    };
    type Report = { status: string; horizon: number; horizons: Line[] };
    const on = await runCli(['solve', 'hexahop', ...input, '--json']);
    const off = await runCli(['solve', 'hexahop', ...input, '--json', '--no-quick-plan']);
    const [a, b] = [on, off].map((r) => {
      expect(r.code, r.stderr).toBe(0);
      return JSON.parse(r.stdout) as Report;
    });
    // Hive's beam plan is its optimum (24, UNSAT at 23): the sweep only had to prove it.
    expect(a).toMatchObject({ status: 'optimal', horizon: 24 });
    expect(a!.horizons.filter((h) => h.by !== undefined)).toEqual([
      expect.objectContaining({ t: 24, result: 'sat', by: 'quick plan' }),
    ]);
    expect(a!.horizons.every((h) => h.t <= 24)).toBe(true);
    // A horizon the solver ran carries the solver process's CPU time and peak memory; the quick plan's none.
    const proof = a!.horizons.find((h) => h.t === 23);
    expect(proof?.result).toBe('unsat');
    expect(proof?.solverPeakRssKiB).toBeGreaterThan(0);
    expect(proof?.solverCpuMs).toBeGreaterThanOrEqual(0);
    expect(a!.horizons.find((h) => h.t === 24)).not.toHaveProperty('solverPeakRssKiB');
    expect(b).toMatchObject({ status: 'optimal', horizon: 24 });
    expect(b!.horizons.some((h) => h.by !== undefined)).toBe(false);
    const human = await runCli(['solve', 'hexahop', ...input, '--no-progress']);
    expect(human.stdout).toMatch(/t= 24 {2}sat +\d+ ms {2}\(quick plan\)\n/);
    expect(human.stdout).toMatch(
      /t= 23 {2}unsat +\d+ ms {2}formula: \d+ vars, \d+ clauses; solver: (\d+ ms|\d+\.\d s) CPU, \d+ MiB peak\n/,
    );
    // The formula named is the level's at 23 moves, as the library encodes it.
    const hive = hexahopGame.parse({ level: 'Hive' });
    const formula = hexahopGame.encode(hive, 23).formula;
    expect(proof).toMatchObject({ vars: formula.numVars, clauses: formula.numClauses });
    expect(human.stdout).toContain(`formula: ${formula.numVars} vars, ${formula.numClauses} clauses;`);
    // The level drawn as it starts, above the moves: the player once, and every green tile.
    const lines = human.stdout.split('\n');
    const head = lines.findIndex((line) => line.startsWith('  Hive ('));
    const map = lines.slice(
      head + 1,
      lines.findIndex((line) => line.startsWith('  moves (')),
    );
    expect(lines[head]).toMatch(/@ the player/);
    expect(map.join('').match(/@/g)).toHaveLength(1);
    const greens = (hive as { tiles: ArrayLike<number> }).tiles;
    // The player starts on a green tile, which the `@` hides.
    expect(lines[head]).toMatch(/@ the player \(on green\)/);
    const drawn = map.join('').match(/g/g)!.length + 1;
    expect(drawn).toBe(Array.from(greens).filter((t) => t === Tile.Green).length);
  });
});

describe('satfarm solve hexahop --plan', () => {
  type Report = { status: string; horizon: number; horizons: { t: number; result: string; by?: string }[] };
  const hive = ['--input', '{"level": "Hive"}'];

  it("starts from an earlier report's plan: with bracket, one UNSAT below it proves it", async () => {
    const first = await runCli(['solve', 'hexahop', ...hive, '--json', '--no-quick-plan']);
    expect(first.code, first.stderr).toBe(0);
    const dir = mkdtempSync(join(tmpdir(), 'satfarm-plan-'));
    try {
      const file = join(dir, 'hive.json');
      writeFileSync(file, first.stdout);
      const args = ['solve', 'hexahop', ...hive, '--no-quick-plan', '--policy', 'bracket', '--plan', file];
      const again = await runCli([...args, '--json']);
      expect(again.code, again.stderr).toBe(0);
      const report = JSON.parse(again.stdout) as Report;
      expect(report).toMatchObject({ status: 'optimal', horizon: 24 });
      expect(report.horizons.map(({ t, result, by }) => ({ t, result, by }))).toEqual([
        { t: 23, result: 'unsat', by: undefined },
        { t: 24, result: 'sat', by: 'given plan' },
      ]);
      const human = await runCli([...args, '--no-progress']);
      expect(human.stdout).toMatch(/t= 24 {2}sat +\d+ ms {2}\(given plan\)/);
      // The same plan as plain text on the command line.
      const moves = (JSON.parse(first.stdout) as { solution: { moves: string[] } }).solution.moves.join(' ');
      const inline = await runCli([...args.slice(0, -1), moves, '--json']);
      expect(inline.code, inline.stderr).toBe(0);
      expect((JSON.parse(inline.stdout) as Report).horizons.map(({ t, by }) => ({ t, by }))).toEqual([
        { t: 23, by: undefined },
        { t: 24, by: 'given plan' },
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a plan it cannot read or that does not win, with exit 2, naming --plan', async () => {
    const cases: [string, RegExp][] = [
      ['["N", "UP"]', /plan: unknown move 'UP' \(move 2\)/],
      ['["N"]', /plan: does not solve the instance/],
      [
        '{"game": "cube", "status": "optimal", "solution": {"moves": []}}',
        /plan\.game: the report is of "cube"/,
      ],
      ['/nonexistent/plan.json', /plan: cannot read file '\/nonexistent\/plan.json' \(ENOENT\)/],
      // No such file, and no path: the text is read as moves.
      ['N NE UP', /plan: unknown move 'UP' \(move 3\)/],
      // A JSON string is the moves too, not a file name.
      ['"N NE UP"', /plan: unknown move 'UP' \(move 3\)/],
      ['plan.json', /plan: cannot read file 'plan.json' \(ENOENT\)/],
    ];
    for (const [plan, message] of cases) {
      const run = await runCli(['solve', 'hexahop', ...hive, '--json', '--plan', plan]);
      expect(run.code, plan).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
    const both = await runCli(['solve', 'hexahop', '--input', '-', '--plan', '-'], {
      stdin: '{"level": "Hive"}',
    });
    expect(both.code).toBe(2);
    expect(both.stderr).toMatch(/plan: standard input already holds the instance/);
  });
});

describe('satfarm solve hexahop --encoding', () => {
  // A laser whose shot destroys the green beyond it: the move budget counting shots applies.
  const laserMap = ['--input', '{"map": ["ogLg", "..og"], "start": [0, 0]}'];

  it('solves with the choices named: the same optimum, the formula they make, and the choices in the report', async () => {
    const solve = async (...flags: string[]) => {
      const run = await runCli(['solve', 'hexahop', ...laserMap, '--json', '--parallel', '1', ...flags]);
      expect(run.code, run.stderr).toBe(0);
      return JSON.parse(run.stdout) as {
        status: string;
        horizon: number;
        stats: { clauses: number };
        encoding?: Record<string, unknown>;
      };
    };
    const plain = await solve();
    const budgeted = await solve('--encoding', '{"shotBudget": true}');
    expect(plain.status).toBe('optimal');
    expect(budgeted.status).toBe('optimal');
    expect(budgeted.horizon).toBe(plain.horizon);
    expect(budgeted.stats.clauses).toBeGreaterThan(plain.stats.clauses);
    expect(budgeted.encoding).toEqual({ shotBudget: true });
    expect(plain.encoding).toBeUndefined();
  });

  it('exits 2 naming the choice for one the game lacks or a value it does not take, and for a game with none', async () => {
    const cases: [string[], RegExp][] = [
      [
        ['hexahop', ...laserMap, '--encoding', '{"shotBudjet": true}'],
        /encoding\.shotBudjet: is no Hex-a-Hop encoding choice/,
      ],
      [
        ['hexahop', ...laserMap, '--encoding', '{"shotBudget": "yes"}'],
        /encoding\.shotBudget: must be true or false/,
      ],
      [
        ['hexahop', ...laserMap, '--encoding', '{"window": -1}'],
        /encoding\.window: must be a whole number of steps/,
      ],
      [['hexahop', ...laserMap, '--encoding', 'shotBudget'], /--encoding <json>.*expected a JSON object/],
      [
        ['cube', '--input', '{"size": 2, "scramble": "R U"}', '--encoding', '{}'],
        /encoding: game cube offers no encoding choices/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['solve', ...args, '--json']);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stdout).toBe('');
    }
  });
});
