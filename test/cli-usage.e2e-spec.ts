import { describe, expect, it } from 'vitest';

import { runCli } from './support/run-cli.js';

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
