import { spawn } from 'node:child_process';

import { describe, expect, it } from 'vitest';

import { repoRoot, runCli } from './support/run-cli.js';

describe('satfarm usage', () => {
  it.each([[[]], [['generate']]])(
    'exits 2 with the usage on stderr when the command is missing: satfarm %j',
    async (args) => {
      const run = await runCli(args);
      expect(run.code).toBe(2);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/^Usage: satfarm/);
    },
  );

  it.each([[['--help']], [['help']], [['generate', '--help']], [['help', 'solve']], [['--version']]])(
    'exits 0 with the answer on stdout when it is asked for: satfarm %j',
    async (args) => {
      const run = await runCli(args);
      expect(run.code).toBe(0);
      expect(run.stderr).toBe('');
      expect(run.stdout).not.toBe('');
    },
  );
});

describe('satfarm generate cnf: an option of the other family', () => {
  it.each([
    [['--family', 'php', '--holes', '3', '--vars', '5'], '--vars: applies to --family random, not to php'],
    [['--family', 'php', '--holes', '3', '--seed', '2'], '--seed: applies to --family random, not to php'],
    [
      ['--family', 'random', '--vars', '5', '--holes', '3'],
      '--holes: applies to --family php, not to random',
    ],
  ])('is refused, not ignored: %j', async (args, reason) => {
    const run = await runCli(['generate', 'cnf', ...args]);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toBe(`satfarm: bad input: ${reason}\n`);
  });

  it("takes each family's own options", async () => {
    const run = await runCli([
      'generate',
      'cnf',
      '--family',
      'random',
      '--vars',
      '3',
      '--k',
      '2',
      '--seed',
      '2',
    ]);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^p cnf 3 13$/m);
  });
});

describe('satfarm writing to a reader that stops early', () => {
  it('ends quietly when the pipe closes (generate cnf | head -1), with no EPIPE trace', async () => {
    const child = spawn(`${repoRoot}bin/satfarm`, ['generate', 'cnf', '--family', 'php', '--holes', '120'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
