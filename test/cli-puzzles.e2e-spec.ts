import { describe, expect, it } from 'vitest';

import { runCli } from './support/run-cli.js';

interface Report {
  status: string;
  verified: boolean;
  unique?: boolean;
  solution: unknown;
}

describe('satfarm generate + solve for the puzzles', () => {
  it.each([
    ['towers', ['--size', '5', '--seed', '11']],
    ['singles', ['--width', '6', '--seed', '11']],
  ])('a generated %s puzzle is solved, verified and proven unique', async (game, options) => {
    const generated = await runCli(['generate', game, ...options]);
    expect(generated.code).toBe(0);
    const id = generated.stdout.trim();
    const run = await runCli(['solve', game, '--input', '-', '--json', '--unique'], { stdin: id });
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({ status: 'satisfiable', verified: true, unique: true });
    // The ID as a JSON string on the command line is read inline, not as a file name.
    const inline = await runCli(['solve', game, '--input', JSON.stringify(id), '--json']);
    expect(inline.code, inline.stderr).toBe(0);
    expect((JSON.parse(inline.stdout) as Report).solution).toEqual(report.solution);
  });

  it.each([
    ['towers', ['--size', '5', '--seed', '3']],
    ['singles', ['--width', '5', '--height', '4', '--seed', '1']],
  ])('a generated %s puzzle as --json is solved as it is printed', async (game, options) => {
    const generated = await runCli(['generate', game, ...options, '--json']);
    expect(generated.code, generated.stderr).toBe(0);
    const run = await runCli(['solve', game, '--input', '-', '--json', '--unique'], {
      stdin: generated.stdout,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'satisfiable', verified: true, unique: true });
  });

  it('refuses singles sizes that no unique puzzle has, and sizes too slow or too large to make, naming the option', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['singles', '--width', '1', '--seed', '1'], /bad input: width: a 1x1 grid has no puzzle/],
      [['singles', '--width', '2', '--height', '1'], /bad input: height: a 2x1 grid has no puzzle/],
      [['singles', '--width', '36'], /bad input: width: must be an integer in 1\.\.35/],
      [['towers', '--size', '40'], /bad input: size: must be an integer in 1\.\.7, got 40/],
      // Formulas built in memory before they are printed: a size that would not fit is refused.
      [
        ['cnf', '--family', 'php', '--holes', '100000'],
        /bad input: holes: would make a formula of [\d,]+ clauses/,
      ],
      [['cnf', '--family', 'php', '--holes', '5', '--pigeons', '2000'], /bad input: pigeons: would make/],
      [
        ['cnf', '--family', 'random', '--vars', '100000000'],
        /bad input: vars: would make a formula of 426,000,000 clauses/,
      ],
      [
        ['cube', '--size', '3', '--moves', '1000000000'],
        /bad input: moves: must be an integer in 0\.\.10000/,
      ],
    ];
    for (const [args, message] of cases) {
      const run = await runCli(['generate', ...args]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/^\s+at /m);
      expect(run.stdout).toBe('');
    }
  });

  it('the same seed generates the same puzzle', async () => {
    const a = await runCli(['generate', 'singles', '--width', '5', '--seed', '3']);
    const b = await runCli(['generate', 'singles', '--width', '5', '--seed', '3']);
    expect(a.stdout).toBe(b.stdout);
  });

  it('finds the winning move at tic-tac-toe and the blocks of the opponent', async () => {
    const instance = JSON.stringify({ board: ['XX.', 'OO.', '...'], player: 'X', k: 3 });
    const run = await runCli(['solve', 'tictactoe', '--input', instance, '--json']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report.solution).toMatchObject({ move: [0, 2], blocks: [[1, 2]] });
  });

  it('draws the solved board in the human report: the grid the JSON answer holds, clues around it', async () => {
    const id = (await runCli(['generate', 'towers', '--size', '5', '--seed', '3'])).stdout.trim();
    const json = await runCli(['solve', 'towers', '--input', '-', '--json'], { stdin: id });
    const human = await runCli(['solve', 'towers', '--input', '-'], { stdin: id });
    expect(human.code, human.stderr).toBe(0);
    const { grid } = (JSON.parse(json.stdout) as { solution: { grid: number[][] } }).solution;
    const drawn = human.stdout.slice(human.stdout.indexOf('solution:\n') + 'solution:\n'.length).split('\n');
    // Each row of the grid appears, in order, as a line of the drawing (a clue may stand either side).
    let line = 0;
    for (const row of grid) {
      while (line < drawn.length && !drawn[line]!.includes(row.join(' '))) line++;
      expect(line, `row ${row.join(' ')} in\n${human.stdout}`).toBeLessThan(drawn.length);
      line++;
    }
    expect(human.stdout).not.toMatch(/solution: \{/);
    // A puzzle has no horizons: one solver run, no bounds.
    expect(human.stdout).toMatch(/^towers: satisfiable; verified: yes\n/);
    expect(human.stdout).toMatch(/\nsolver run:\n {2}sat +\d+ ms {2}formula: \d+ vars/);
    expect(human.stdout).not.toMatch(/bounds:|horizons:|t= +0/);
  });

  it('draws the second solution of an ambiguous puzzle as it draws the first', async () => {
    // A row of 1 2 1 has two shadings: either 1 is shaded, never both.
    const run = await runCli(['solve', 'singles', '--input', '{"grid": [[1, 2, 1]]}', '--unique']);
    expect(run.code, run.stderr).toBe(0);
    const drawn = /\nsolution:\n {2}(.+)\nsecond solution:\n {2}(.+)\n/.exec(run.stdout);
    expect(drawn, run.stdout).not.toBeNull();
    expect([drawn![1], drawn![2]].sort()).toEqual(['# 2 1', '1 2 #']);
    expect(run.stdout).toMatch(/\nunique: no\n/);
  });

  it('rejects a malformed Towers ID with exit code 2 naming the field', async () => {
    const run = await runCli(['solve', 'towers', '--input', '-', '--json'], { stdin: '5:1/2/3' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/bad input: id/);
  });
});
