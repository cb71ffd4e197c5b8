import { Command, Option } from 'commander';

import {
  checkOptionScope,
  defaultMaxFormulaBytes,
  exitCodeFor,
  type ScopedOptions,
  type SolveReport,
  solveInstance,
} from '@satfarm/engine';
import { type EncodingChoices, gameById } from '@satfarm/games';
import { installSolverReaper, SOLVER_NAMES, type SolverName, usableCores } from '@satfarm/solver';

import { jsonObject, nonNegativeInt, positiveInt, positiveSeconds } from './cli-options.js';
import { SweepProgressDisplay } from './progress-display.js';
import { readInput, readPlan } from './read-input.js';
import { renderReport } from './report-view.js';

interface SolveFlags {
  input?: string;
  json?: boolean;
  maxHorizon?: number;
  minHorizon?: number;
  parallel?: number;
  maxFormulaMib?: number;
  solver?: SolverName;
  timeout?: number;
  unique?: boolean;
  policy?: string;
  patience?: number;
  presets?: boolean;
  quickPlan: boolean;
  plan?: string;
  encoding?: EncodingChoices;
  progress: boolean;
}

/** `satfarm solve <game>`: solve one instance in this process and print the report. */
export function solveCommand(): Command {
  return new Command('solve')
    .description('solve one instance in this process (horizon sweep for planning games)')
    .argument('<game>', 'cube, snake, hexahop, towers, singles, tictactoe or cnf')
    .option('-i, --input <file>', 'instance file, - for standard input, or inline JSON')
    .option('--json', 'print exactly one JSON object on stdout')
    .option('--max-horizon <n>', 'planning games: largest horizon to try', nonNegativeInt)
    .option(
      '--min-horizon <n>',
      'start the sweep at n, e.g. from a bound an earlier run proved (n - 1 runs too, to prove it; a plan at or below n - 1 reopens the horizons under it)',
      nonNegativeInt,
    )
    .option(
      '--parallel <n>',
      'horizons solved at once (default: the cores this process may use, CPU quota included)',
      positiveInt,
    )
    .option(
      '--max-formula-mib <n>',
      "most memory one horizon's formula may take, MiB (4 bytes a literal); a larger one ends its horizon unknown, reason formula-limit (default: an eighth of the memory this process may use, shared among --parallel)",
      positiveInt,
    )
    .addOption(new Option('--solver <name>', "SAT solver (default: the game's own)").choices(SOLVER_NAMES))
    .option('--timeout <seconds>', 'give up after this long, keeping the best plan found', positiveSeconds)
    .option('--unique', 'single-solve games: prove the solution unique, or show a second one')
    .option('--policy <name>', 'horizon-choice policy of the sweep (consecutive, probe, leap, bracket)')
    .option(
      '--patience <seconds>',
      "how long a probe of probe's or bracket's second slot runs before it gives way to another horizon",
      positiveSeconds,
    )
    .option(
      '--presets',
      'planning games: solver presets by the bounds (--unsat for the lowest open horizon, --sat above)',
    )
    .option('--no-presets', 'one solver configuration for every horizon (default for games other than cube)')
    .option(
      '--no-quick-plan',
      "no quick plan before the sweep (the game's heuristic search, whose plan bounds the sweep from above)",
    )
    .option(
      '--plan <plan>',
      'a plan already known (moves, a solution, or an earlier --json report; a file, -, inline JSON or the moves as text): verified, then the sweep only looks below it',
    )
    .option(
      '--encoding <json>',
      'encoding choices as a JSON object, e.g. \'{"shotBudget":true}\' for hexahop (docs/cli.md lists them); a choice the game lacks exits 2',
      jsonObject,
    )
    .option('--no-progress', 'no live progress display')
    .action(async (gameName: string, flags: SolveFlags) => {
      checkOptionScope(gameById(gameName), scopedOptions(flags), (option) => flagOf(option, flags));
      installSolverReaper();
      const input = await readInput(flags.input);
      const plan = await readPlan(flags.plan, flags.input);
      const controller = new AbortController();
      const onSignal = (): void => controller.abort(new Error('interrupted'));
      process.once('SIGINT', onSignal);
      process.once('SIGTERM', onSignal);
      const display = flags.progress && process.stderr.isTTY ? new SweepProgressDisplay() : undefined;
      const parallelism = flags.parallel ?? usableCores();
      let report: SolveReport;
      try {
        report = await solveInstance(gameName, input, {
          maxHorizon: flags.maxHorizon,
          minHorizon: flags.minHorizon,
          parallelism,
          maxFormulaBytes:
            flags.maxFormulaMib === undefined
              ? defaultMaxFormulaBytes(parallelism)
              : flags.maxFormulaMib * 2 ** 20,
          solver: flags.solver,
          timeoutSec: flags.timeout,
          unique: flags.unique,
          policy: flags.policy,
          patienceSec: flags.patience,
          presets: flags.presets,
          ...(flags.quickPlan ? {} : { quickPlan: false }),
          plan,
          ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }),
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

/** The flags of `solve` that apply to some games only (see `checkOptionScope`). */
interface ScopedFlags {
  maxHorizon?: number;
  minHorizon?: number;
  plan?: string;
  policy?: string;
  patience?: number;
  presets?: boolean;
  quickPlan: boolean;
  unique?: boolean;
}

/** The scoped flags as the engine names them; `--no-quick-plan` is the only way to give quickPlan. */
function scopedOptions(flags: ScopedFlags): ScopedOptions {
  return {
    maxHorizon: flags.maxHorizon,
    minHorizon: flags.minHorizon,
    plan: flags.plan,
    policy: flags.policy,
    patienceSec: flags.patience,
    presets: flags.presets,
    quickPlan: flags.quickPlan ? undefined : false,
    unique: flags.unique,
  };
}

/** The flag that gave `option`, as typed, for error messages. */
function flagOf(option: keyof ScopedOptions, flags: ScopedFlags): string {
  const names: Record<keyof ScopedOptions, string> = {
    maxHorizon: '--max-horizon',
    minHorizon: '--min-horizon',
    plan: '--plan',
    policy: '--policy',
    patienceSec: '--patience',
    presets: flags.presets === false ? '--no-presets' : '--presets',
    quickPlan: '--no-quick-plan',
    unique: '--unique',
  };
  return names[option];
}
