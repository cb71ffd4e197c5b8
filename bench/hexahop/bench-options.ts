import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';

import {
  type EncodeOptions,
  hexahopEncodingChoices,
  type HexahopInstance,
  instanceOfLevel,
  loadLevelCatalog,
} from '@satfarm/games';
import { SOLVER_NAMES, type SolverName } from '@satfarm/solver';

/** Bad input to a benchmark: names the option and the reason, exit code 2, nothing run. */
function failOption(bench: string, option: string | undefined, reason: string): never {
  console.error(`${bench}: ${option === undefined ? '' : `--${option}: `}${reason}`);
  process.exit(2);
}

type BenchFlags = NonNullable<ParseArgsConfig['options']>;

/**
 * A benchmark's command line: its flags parsed (an unknown or malformed flag fails, exit 2), and
 * the `fail` that names a flag whose value is bad.
 */
export function benchArgs<const F extends BenchFlags>(
  bench: string,
  flags: F,
): {
  args: ReturnType<typeof parseArgs<{ options: F }>>['values'];
  fail: (option: string | undefined, reason: string) => never;
} {
  const fail = (option: string | undefined, reason: string): never => failOption(bench, option, reason);
  try {
    return { args: parseArgs({ options: flags }).values, fail };
  } catch (error) {
    return fail(undefined, (error as Error).message);
  }
}

/** An integer option of at least `min`, or a failure naming it. */
export function integerOption(
  text: string,
  min: number,
  option: string,
  fail: (option: string, reason: string) => never,
): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < min) fail(option, `must be an integer from ${min}, got '${text}'`);
  return n;
}

/** A positive number of seconds (or a like option), or a failure naming it. */
export function positiveOption(
  text: string,
  option: string,
  fail: (option: string, reason: string) => never,
): number {
  const n = Number(text);
  if (!(n > 0)) fail(option, `must be a positive number, got '${text}'`);
  return n;
}

/** Where `--out` writes: a bare name to bench/results/NAME.json, a path (with a slash or ending in .json) as given. */
export function resultsPath(out: string): string {
  return out.includes('/') || out.endsWith('.json')
    ? resolve(out)
    : resolve(dirname(fileURLToPath(import.meta.url)), `../../../bench/results/${out}.json`);
}

/** Writes a benchmark's JSON result to `out` (its folder made if missing) and says where. */
export function writeResults(out: string, result: object): void {
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

/**
 * The levels `only` names (display or file names, comma-separated, any case), all when undefined;
 * a name matching no level fails the option.
 */
export function selectLevels<L extends { name: string; file: string }>(
  all: L[],
  only: string | undefined,
  fail: (option: string, reason: string) => never,
): L[] {
  const names = only?.split(',').map((s) => s.trim().toLowerCase());
  if (names === undefined) return all;
  const matches = (e: L, n: string): boolean => e.name.toLowerCase() === n || e.file.toLowerCase() === n;
  const unknown = names.filter((n) => !all.some((e) => matches(e, n)));
  if (unknown.length > 0) fail('only', `no level named ${unknown.join(', ')}`);
  return all.filter((e) => names.some((n) => matches(e, n)));
}

/** `--level`: the one supported level it names (display or file name, any case), as an instance. */
export function oneLevel(name: string, fail: (option: string, reason: string) => never): HexahopInstance {
  const entry = selectLevels(loadLevelCatalog(), name, (_o, reason) => fail('level', reason)).find(
    (e) => e.supported,
  );
  return instanceOfLevel(entry ?? fail('level', `'${name}' is not a supported level`));
}

/** `--solver`: one of the solver names, or `fallback` when not given. */
export function solverOption(
  text: string | undefined,
  fallback: SolverName,
  fail: (option: string, reason: string) => never,
): SolverName {
  if (text === undefined) return fallback;
  const names: readonly string[] = SOLVER_NAMES;
  if (!names.includes(text)) fail('solver', `must be one of ${SOLVER_NAMES.join(', ')}, got '${text}'`);
  return text as SolverName;
}

/**
 * `--variant`: Hex-a-Hop encoding choices as a JSON object, or undefined when not given; JSON that
 * is not an object, or names a choice the encoding does not have, fails the option.
 */
export function variantOption(
  text: string | undefined,
  fail: (option: string, reason: string) => never,
): EncodeOptions['variant'] {
  if (text === undefined) return undefined;
  let variant: unknown;
  try {
    variant = JSON.parse(text);
  } catch (error) {
    return fail('variant', `is not JSON: ${(error as Error).message}`);
  }
  if (typeof variant !== 'object' || variant === null || Array.isArray(variant)) {
    return fail('variant', `must be a JSON object, got ${text}`);
  }
  try {
    hexahopEncodingChoices({ variant: variant as EncodeOptions['variant'] });
  } catch (error) {
    return fail('variant', (error as Error).message);
  }
  return variant as EncodeOptions['variant'];
}

/** When and on what a benchmark ran, for its JSON result. */
export function machineFields(): { date: string; node: string; cpu: string | undefined; cores: number } {
  return {
    date: new Date().toISOString(),
    node: process.version,
    cpu: cpus()[0]?.model,
    cores: cpus().length,
  };
}

/**
 * Aborted by the first SIGINT or SIGTERM, so that a long run cut short still records what its
 * solves proved by then (each solve given this signal stops, reaping its solvers, and reports its
 * bounds); a second signal ends the process as usual.
 */
export function abortOnSignals(): AbortSignal {
  const controller = new AbortController();
  const abort = (): void => controller.abort(new Error('interrupted'));
  process.once('SIGINT', abort);
  process.once('SIGTERM', abort);
  return controller.signal;
}
