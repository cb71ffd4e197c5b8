import { Command, CommanderError } from 'commander';

import { ExitCode, SATFARM_VERSION, VerificationError } from '@satfarm/engine';
import { InputError } from '@satfarm/games';
import { SolverError } from '@satfarm/solver';

import { apiCommand } from './api.command.js';
import { batchCommand } from './batch.command.js';
import { cubeTablesCommand } from './cube-tables.command.js';
import { encodeCommand } from './encode.command.js';
import { generateCommand } from './generate.command.js';
import { levelsCommand } from './levels.command.js';
import { serveCommand } from './serve.command.js';
import { solveCommand } from './solve.command.js';
import { submitCommand } from './submit.command.js';
import { workerCommand } from './worker.command.js';

/** Builds the `satfarm` command line. */
export function buildProgram(): Command {
  const program = new Command('satfarm')
    .description('a SAT solver farm for games and puzzles')
    .version(SATFARM_VERSION)
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(solveCommand());
  program.addCommand(encodeCommand());
  program.addCommand(generateCommand());
  program.addCommand(levelsCommand());
  program.addCommand(cubeTablesCommand());
  program.addCommand(submitCommand());
  program.addCommand(batchCommand());
  program.addCommand(serveCommand());
  program.addCommand(apiCommand());
  program.addCommand(workerCommand());
  const override = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.commands.forEach(override);
  };
  override(program);
  return program;
}

/** Maps an error to the exit codes of docs/cli.md#exit-codes, with a message on stderr. */
export function exitCodeForError(err: unknown): number {
  if (err instanceof CommanderError) {
    // `--help`, `help` and `--version` exit 0; the usage commander prints on stderr for a missing
    // command (`satfarm`, `satfarm generate`) comes with a non-zero exit code: bad input.
    const asked = ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(err.code);
    if (asked && err.exitCode === 0) return 0;
    return ExitCode.badInput; // commander has already printed its message
  }
  if (err instanceof InputError) {
    process.stderr.write(`satfarm: bad input: ${err.message}\n`);
    return ExitCode.badInput;
  }
  if (err instanceof VerificationError || err instanceof SolverError) {
    process.stderr.write(`satfarm: internal error: ${err.message}\n`);
    return ExitCode.internal;
  }
  process.stderr.write(
    `satfarm: internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
  );
  return ExitCode.internal;
}
