import { type Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';

import {
  JOB_OPTION_KEYS,
  JOB_OPTIONS,
  type JobOptionKey,
  JobOptionsSchema,
  type OptionSpec,
  SolveOptionsSchema,
  SolverNameSchema,
} from '@satfarm/games';

import { batchCommand } from './batch.command.js';
import { flagName, flagOptions, type JobOptionCommand, jobOptionsOf } from './job-option-flags.js';
import { solveCommand } from './solve.command.js';
import { submitCommand } from './submit.command.js';

const COMMANDS: readonly JobOptionCommand[] = ['solve', 'submit', 'batch submit'];

/** The command as the program builds it, failing with an error instead of exiting. */
function commandOf(name: JobOptionCommand): Command {
  const command =
    name === 'solve'
      ? solveCommand()
      : name === 'submit'
        ? submitCommand()
        : batchCommand().commands.find((c) => c.name() === 'submit')!;
  return command.exitOverride().configureOutput({ writeErr: () => undefined, writeOut: () => undefined });
}

/** The options `command` gets from `args` (its flags read by commander, then by `jobOptionsOf`). */
function optionsFrom(name: JobOptionCommand, args: string[]): object {
  const command = commandOf(name);
  command.parseOptions(args);
  return jobOptionsOf(command.opts(), name);
}

/**
 * Whether `command` offers `key` as a flag: all of them but the farm's own on solve, and one
 * job's on batch submit.
 */
function offers(name: JobOptionCommand, key: JobOptionKey): boolean {
  const spec: OptionSpec = JOB_OPTIONS[key];
  if (name === 'solve') return spec.farmOnly !== true;
  return name === 'submit' || spec.flag.oneJob !== true;
}

/** Each option by its flags, and the same option as the API's JSON takes it. */
const SAME_OPTION: Array<[string[], Record<string, unknown>]> = [
  [['--max-horizon', '12'], { maxHorizon: 12 }],
  [['--min-horizon', '0'], { minHorizon: 0 }],
  [['--parallel', '3'], { parallelism: 3 }],
  [['--timeout', '1.5'], { timeoutSec: 1.5 }],
  [['--solver', 'cadical'], { solver: 'cadical' }],
  [['--priority', '7'], { priority: 7 }],
  [['--unique'], { unique: true }],
  [['--policy', 'probe'], { policy: 'probe' }],
  [['--patience', '2'], { patienceSec: 2 }],
  [['--portfolio', '4'], { portfolio: 4 }],
  [['--portfolio', 'off'], { portfolio: 'off' }],
  [['--split-after', '20'], { split: 20 }],
  [['--split-after', '0'], { split: 0 }],
  [['--split-after', 'off'], { split: 'off' }],
  [['--presets'], { presets: true }],
  [['--no-presets'], { presets: false }],
  [['--no-quick-plan'], { quickPlan: false }],
  [['--trust-bound'], { trustBound: true }],
  [['--certify'], { certify: true }],
  [['--proof-limit', '512'], { proofLimitMiB: 512 }],
  [['--plan', 'N NE J'], { plan: 'N NE J' }],
  [['--encoding', '{"shotBudget": true, "window": 2}'], { encoding: { shotBudget: true, window: 2 } }],
];

describe('the job option flags', () => {
  it.each(COMMANDS)('are generated on %s from the table: one flag per option it takes', (name) => {
    const longs = commandOf(name).options.map((o) => o.long);
    for (const key of JOB_OPTION_KEYS) {
      const flags = flagOptions(key, name).map((o) => o.long);
      for (const flag of flags) expect(longs.includes(flag), `${name} ${flag}`).toBe(offers(name, key));
    }
    expect(JOB_OPTION_KEYS.filter((key) => !offers(name, key))).toEqual(
      { solve: ['priority'], submit: [], 'batch submit': ['plan'] }[name],
    );
  });

  it('cover every option, each case giving one', () => {
    expect(new Set(SAME_OPTION.flatMap(([, json]) => Object.keys(json)))).toEqual(new Set(JOB_OPTION_KEYS));
  });

  it.each(SAME_OPTION)(
    '%j give the same option as the JSON %j on every command that offers it',
    (args, json) => {
      const key = Object.keys(json)[0] as JobOptionKey;
      for (const name of COMMANDS.filter((c) => offers(c, key))) {
        const schema = name === 'solve' ? SolveOptionsSchema : JobOptionsSchema;
        expect(optionsFrom(name, args), name).toEqual(schema.parse(json));
      }
    },
  );

  it.each(COMMANDS)('give %s no option that was not asked for, so the defaults hold', (name) => {
    expect(optionsFrom(name, [])).toEqual({});
  });

  it.each([
    [
      ['--parallel', '0'],
      "option '--parallel <n>' argument '0' is invalid. expected a positive integer, got '0'",
    ],
    [['--max-horizon', '-1'], "expected a non-negative integer, got '-1'"],
    [['--timeout', '3000000'], 'expected a positive number of seconds, at most 604800 (7 days)'],
    [['--solver', 'glucose'], 'Allowed choices are kissat, cadical, minisat'],
    [['--encoding', '[1]'], "expected a JSON object, got '[1]'"],
  ])('refuse %j on every command, naming the flag and the reason', (args, message) => {
    for (const name of COMMANDS) {
      const parsing = (): object => optionsFrom(name, args);
      expect(parsing, name).toThrow(CommanderError);
      expect(parsing, name).toThrow(message);
    }
  });

  it('refuse a priority the farm does not take before connecting', () => {
    expect(() => optionsFrom('submit', ['--priority', '500'])).toThrow("expected 0..100, got '500'");
  });

  it("offer the solver's choices from the schema", () => {
    const [solver] = flagOptions('solver', 'submit');
    expect(solver?.argChoices).toEqual(SolverNameSchema.options);
  });

  it('help each command in its own words where the two differ', () => {
    const help = (key: JobOptionKey, name: JobOptionCommand): string | undefined =>
      flagOptions(key, name)[0]?.description;
    expect(help('parallelism', 'solve')).toBe(
      'horizons solved at once (default: the cores this process may use, CPU quota included)',
    );
    expect(help('parallelism', 'submit')).toBe('horizons in flight at once');
    expect(help('parallelism', 'batch submit')).toBe('horizons in flight at once');
    expect(help('maxHorizon', 'solve')).toBe('planning games: largest horizon to try');
  });
});

describe(flagName.name, () => {
  it('names the flag as typed, for errors', () => {
    expect(flagName('presets', true)).toBe('--presets');
    expect(flagName('presets', false)).toBe('--no-presets');
    expect(flagName('quickPlan', false)).toBe('--no-quick-plan');
    expect(flagName('patienceSec', 1)).toBe('--patience');
    expect(flagName('plan', 'N')).toBe('--plan');
  });
});
