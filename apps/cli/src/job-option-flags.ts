import { type Command, InvalidArgumentError, Option } from 'commander';

import type { EncodingChoices } from '@satfarm/games';
import { type JobOptions, MAX_PRIORITY } from '@satfarm/queue';
import { SOLVER_NAMES, type SolverName } from '@satfarm/solver';

import { jsonObject, nonNegativeInt, positiveInt, positiveSeconds } from './cli-options.js';

/** The flags that become a farm job's `options` (`submit`, `batch submit`). */
export interface JobOptionFlags {
  maxHorizon?: number;
  minHorizon?: number;
  parallel?: number;
  timeout?: number;
  solver?: SolverName;
  priority?: number;
  unique?: boolean;
  policy?: string;
  patience?: number;
  presets?: boolean;
  quickPlan: boolean;
  encoding?: EncodingChoices;
}

/** Adds the job option flags to `command` (their values arrive as {@link JobOptionFlags}). */
export function addJobOptionFlags(command: Command): Command {
  return command
    .option('--max-horizon <n>', 'planning games: largest horizon to try', nonNegativeInt)
    .option(
      '--min-horizon <n>',
      'start the sweep at n (checked, never trusted: see solve --help)',
      nonNegativeInt,
    )
    .option('--parallel <n>', 'horizons in flight at once', positiveInt)
    .option('--timeout <seconds>', 'give up after this long, keeping the best plan found', positiveSeconds)
    .addOption(new Option('--solver <name>', 'SAT solver').choices(SOLVER_NAMES))
    .option('--priority <n>', `0..${MAX_PRIORITY}, higher runs first`, priority)
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
      "no quick plan beside the sweep (the game's heuristic search; see solve --help)",
    )
    .option(
      '--encoding <json>',
      'encoding choices as a JSON object (see solve --help); checked by the farm, 400 for a choice the game lacks',
      jsonObject,
    );
}

/** A job's `options` from the flags: only those given, so the farm's defaults hold for the rest. */
export function jobOptionsOf(flags: JobOptionFlags): JobOptions {
  return {
    ...(flags.maxHorizon === undefined ? {} : { maxHorizon: flags.maxHorizon }),
    ...(flags.minHorizon === undefined ? {} : { minHorizon: flags.minHorizon }),
    ...(flags.parallel === undefined ? {} : { parallelism: flags.parallel }),
    ...(flags.timeout === undefined ? {} : { timeoutSec: flags.timeout }),
    ...(flags.solver === undefined ? {} : { solver: flags.solver }),
    ...(flags.priority === undefined ? {} : { priority: flags.priority }),
    ...(flags.unique ? { unique: true } : {}),
    ...(flags.policy === undefined ? {} : { policy: flags.policy }),
    ...(flags.patience === undefined ? {} : { patienceSec: flags.patience }),
    ...(flags.presets === undefined ? {} : { presets: flags.presets }),
    ...(flags.quickPlan ? {} : { quickPlan: false }),
    ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }),
  };
}

/** `--priority`: a whole number the farm takes (0..MAX_PRIORITY), checked before connecting. */
function priority(value: string): number {
  const n = nonNegativeInt(value);
  if (n > MAX_PRIORITY) throw new InvalidArgumentError(`expected 0..${MAX_PRIORITY}, got '${value}'`);
  return n;
}
