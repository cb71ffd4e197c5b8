import { Command } from 'commander';

import {
  checkOptionScope,
  defaultMaxFormulaBytes,
  defaultPortfolioRecordPath,
  exitCodeFor,
  FilePortfolioRecord,
  SlotPool,
  type SolveReport,
  solveInstance,
} from '@satfarm/engine';
import { gameById } from '@satfarm/games';
import { installSolverReaper, usableCores } from '@satfarm/solver';

import { positiveInt } from './cli-options.js';
import { addJobOptionFlags, flagName, jobOptionsOf } from './job-option-flags.js';
import { SweepProgressDisplay } from './progress-display.js';
import { readInput, readPlan } from './read-input.js';
import { renderReport } from './report-view.js';

/** The flags `solve` reads itself: its own, and `--plan`'s text (`jobOptionsOf` reads the options). */
interface SolveFlags {
  input?: string;
  json?: boolean;
  maxFormulaMib?: number;
  slots?: number;
  plan?: string;
  progress: boolean;
}

/** `satfarm solve <game>`: solve one instance in this process and print the report. */
export function solveCommand(): Command {
  const command = new Command('solve')
    .description('solve one instance in this process (horizon sweep for planning games)')
    .argument('<game>', 'cube, snake, hexahop, towers, singles, tictactoe or cnf')
    .option('-i, --input <file>', 'instance file, - for standard input, or inline JSON')
    .option('--json', 'print exactly one JSON object on stdout');
  return addJobOptionFlags(command, 'solve')
    .option(
      '--max-formula-mib <n>',
      "most memory one horizon's formula may take, MiB (4 bytes a literal); a larger one ends its horizon unknown, reason formula-limit (default: an eighth of the memory this process may use, shared among --parallel)",
      positiveInt,
    )
    .option(
      '--slots <n>',
      'solver processes at once (default: --parallel); slots beyond the horizons in flight go to --portfolio',
      positiveInt,
    )
    .option('--no-progress', 'no live progress display')
    .action(async (gameName: string, flags: SolveFlags) => {
      const asked = jobOptionsOf(flags, 'solve');
      // Refused before the instance is read, naming the flag as typed.
      checkOptionScope(gameById(gameName), asked, (option) => flagName(option, asked[option]));
      installSolverReaper();
      const input = await readInput(flags.input);
      const plan = await readPlan(flags.plan, flags.input);
      const controller = new AbortController();
      const onSignal = (): void => controller.abort(new Error('interrupted'));
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const display = flags.progress && process.stderr.isTTY ? new SweepProgressDisplay() : undefined;
      const parallelism = asked.parallelism ?? usableCores();
      let report: SolveReport;
      try {
        report = await solveInstance(gameName, input, {
          ...asked,
          parallelism,
          maxFormulaBytes:
            flags.maxFormulaMib === undefined
              ? defaultMaxFormulaBytes(parallelism)
              : flags.maxFormulaMib * 2 ** 20,
          plan,
          ...(flags.slots === undefined ? {} : { slots: new SlotPool(flags.slots) }),
          ...(asked.portfolio === undefined || asked.portfolio === 'off'
            ? {}
            : { portfolioRecord: new FilePortfolioRecord(defaultPortfolioRecordPath()) }),
          signal: controller.signal,
          onEvent: display ? (e) => display.handle(e) : undefined,
        });
      } finally {
        display?.stop();
        process.off('SIGINT', onSignal);
        process.off('SIGTERM', onSignal);
      }
      process.stdout.write(flags.json ? `${JSON.stringify(report)}\n` : renderReport(report));
      process.exitCode = exitCodeFor(report);
    });
}
