import { type Command, InvalidArgumentError, Option } from 'commander';

import {
  type FlagValue,
  JOB_OPTION_KEYS,
  JOB_OPTIONS,
  type JobOptionKey,
  type JobOptions,
  MAX_PRIORITY,
  type OptionSpec,
  type SolveUserOptions,
} from '@satfarm/games';

import {
  jsonObject,
  nonNegativeInt,
  nonNegativeSeconds,
  positiveInt,
  positiveSeconds,
} from './cli-options.js';

/**
 * The commands whose flags are the job options (libs/games/src/job-options.ts): `solve` in this
 * process, `submit` to a farm, and `batch submit`, which takes `submit`'s but those of one job.
 */
export type JobOptionCommand = 'solve' | 'submit' | 'batch submit';

/** How each kind of flag value is read; none: the text as it is (or one of the flag's choices). */
const PARSERS: Record<FlagValue, ((text: string) => unknown) | undefined> = {
  nonNegativeInt,
  positiveInt,
  seconds: positiveSeconds,
  secondsOrOff,
  priority,
  json: jsonObject,
  choice: undefined,
  text: undefined,
  countOrOff,
};

/** `off`, or a positive whole number. */
function countOrOff(text: string): number | 'off' {
  return text === 'off' ? 'off' : positiveInt(text);
}

/** `off`, or a number of seconds from 0. */
function secondsOrOff(text: string): number | 'off' {
  return text === 'off' ? 'off' : nonNegativeSeconds(text);
}

function specOf(key: JobOptionKey): OptionSpec {
  return JOB_OPTIONS[key];
}

/** The options `command` takes as flags, in the table's order. */
export function optionKeysOf(command: JobOptionCommand): JobOptionKey[] {
  return JOB_OPTION_KEYS.filter((key) => {
    const spec = specOf(key);
    if (command === 'solve') return spec.farmOnly !== true;
    return command === 'submit' || spec.flag.oneJob !== true;
  });
}

/** The commander options of `key` on `command`: its flag, and the opposite switch when it has one. */
export function flagOptions(key: JobOptionKey, command: JobOptionCommand): Option[] {
  const spec = specOf(key);
  const { flag } = spec;
  const help = flag.help ?? spec.description;
  const option = new Option(
    flag.flags,
    typeof help === 'string' ? help : help[command === 'solve' ? 'solve' : 'submit'],
  );
  const parse = flag.value === undefined ? undefined : PARSERS[flag.value];
  if (parse !== undefined) option.argParser(parse);
  if (flag.choices !== undefined) option.choices(flag.choices);
  return flag.negation === undefined
    ? [option]
    : [option, new Option(flag.negation.flags, flag.negation.help)];
}

/** Adds the job option flags of `on` to `command` (their values become options by `jobOptionsOf`). */
export function addJobOptionFlags(command: Command, on: JobOptionCommand): Command {
  for (const key of optionKeysOf(on)) for (const option of flagOptions(key, on)) command.addOption(option);
  return command;
}

/**
 * The options given by the flags (commander's values, `flags`), by their keys in the API's
 * `options`: only those given, so the defaults (the game's, the farm's) hold for the rest. `plan`
 * is the flag's text, which the command reads (`readPlan`).
 */
export function jobOptionsOf(flags: object, on: 'solve'): SolveUserOptions;
export function jobOptionsOf(flags: object, on: JobOptionCommand): JobOptions;
export function jobOptionsOf(flags: object, on: JobOptionCommand): JobOptions {
  const values = flags as Record<string, unknown>;
  const options: Record<string, unknown> = {};
  for (const key of optionKeysOf(on)) {
    const option = new Option(specOf(key).flag.flags);
    const value = values[option.attributeName()];
    // A switch offered only as its negation (`--no-quick-plan`) is true unless it is given.
    if (value === undefined || (option.negate && value === true)) continue;
    options[key] = value;
  }
  return options;
}

/** The flag that gives `key` the value `value`, as typed: `--no-presets` for presets false. */
export function flagName(key: JobOptionKey, value: unknown): string {
  const { flag } = specOf(key);
  const flags = flag.negation !== undefined && value === false ? flag.negation.flags : flag.flags;
  return new Option(flags).long ?? flags;
}

/** `--priority`: a whole number the farm takes (0..MAX_PRIORITY), checked before connecting. */
function priority(value: string): number {
  const n = nonNegativeInt(value);
  if (n > MAX_PRIORITY) throw new InvalidArgumentError(`expected 0..${MAX_PRIORITY}, got '${value}'`);
  return n;
}
