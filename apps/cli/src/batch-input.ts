import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';

import { checkOptionScope } from '@satfarm/engine';
import { gameById, InputError } from '@satfarm/games';
import { type JobOptions, type JobRequest, JobOptionsSchema } from '@satfarm/queue';

import { detectGame } from './batch-game-detection.js';
import { parseInputText, readStream } from './read-input.js';

/** One job of a batch and where it came from, for errors (`cubes/a.json`, `jobs.jsonl:12`). */
export interface BatchEntry {
  source: string;
  line?: number;
  request: JobRequest;
}

/** A text to read as jobs: a file's content, or standard input (`-`). */
export interface BatchText {
  name: string;
  text: string;
}

/** Bad input in one file or line: `<file>[:<line>]: <field>: <reason>` (exit 2). */
function badEntry(source: string, line: number | undefined, err: unknown): never {
  if (!(err instanceof InputError)) throw err;
  const where = line === undefined ? source : `${source}:${line}`;
  throw new InputError(`${where}: ${err.field}`, err.reason);
}

/** Whether a text is read as JSON Lines: `-` (standard input) and `.jsonl` files. */
export function isJsonLines(name: string): boolean {
  return name === '-' || /\.jsonl$/i.test(name);
}

const REQUEST_KEYS = new Set(['game', 'instance', 'options']);

/**
 * The jobs of one JSON Lines text, `{"game", "instance", "options"?}` a line (blank lines
 * skipped): `game` may be left out when `defaultGame` (`--game`) is given. Each line's options go
 * over `options` (the flags').
 */
export function jsonLinesEntries(
  { name, text }: BatchText,
  options: JobOptions,
  defaultGame?: string,
): BatchEntry[] {
  const entries: BatchEntry[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const line = i + 1;
    try {
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch (err) {
        throw new InputError('line', `invalid JSON: ${(err as Error).message}`);
      }
      entries.push({ source: name, line, request: requestOf(value, options, defaultGame) });
    } catch (err) {
      badEntry(name, line, err);
    }
  });
  return entries;
}

/** A job request object (a JSON Lines line, or a `.json` file holding one). */
function requestOf(value: unknown, options: JobOptions, defaultGame?: string): JobRequest {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new InputError('line', 'expected a JSON object {"game", "instance", "options"?}');
  const obj = value as Record<string, unknown>;
  const unknownKey = Object.keys(obj).find((key) => !REQUEST_KEYS.has(key));
  if (unknownKey !== undefined) throw new InputError(unknownKey, 'unknown field');
  const game = obj.game ?? defaultGame;
  if (typeof game !== 'string' || game === '')
    throw new InputError('game', 'required (or pass --game for every line)');
  if (obj.instance === undefined || obj.instance === null) throw new InputError('instance', 'required');
  const own = JobOptionsSchema.safeParse(obj.options ?? {});
  if (!own.success) {
    const issue = own.error.issues[0]!;
    throw new InputError(['options', ...issue.path.map(String)].join('.'), issue.message);
  }
  return { game, instance: obj.instance, options: { ...options, ...own.data } };
}

/**
 * The job of one instance file: its game is `game` (`--game`), else by its name or content
 * (`detectGame`). A `.json` file holding a job request (`{"game", "instance", ...}`) is that job.
 */
export function fileEntry({ name, text }: BatchText, options: JobOptions, game?: string): BatchEntry {
  try {
    const content = parseInputText(text);
    if (game === undefined && isRequestObject(content))
      return { source: name, request: requestOf(content, options) };
    return { source: name, request: { game: game ?? detectGame(name, content), instance: content, options } };
  } catch (err) {
    return badEntry(name, undefined, err);
  }
}

function isRequestObject(content: unknown): boolean {
  return (
    typeof content === 'object' &&
    content !== null &&
    !Array.isArray(content) &&
    'game' in content &&
    'instance' in content
  );
}

/**
 * Checks one job as the farm would, before anything is sent: its game parses the instance and
 * takes its options (`checkOptionScope`). A refusal names the file (and line) and the field; a
 * line's fields are named from the line (`instance.scramble`, `options.maxHorizon`).
 */
export function checkEntry(entry: BatchEntry): void {
  const prefix = entry.line === undefined ? '' : 'instance.';
  try {
    const game = gameById(entry.request.game);
    try {
      game.parse(entry.request.instance);
    } catch (err) {
      if (err instanceof InputError) throw new InputError(`${prefix}${err.field}`, err.reason);
      throw err;
    }
    checkOptionScope(game, entry.request.options ?? {}, (option) => `options.${option}`);
  } catch (err) {
    badEntry(entry.source, entry.line, err);
  }
}

/** The entries of every text, in order, each checked (`checkEntry`). */
export function batchEntries(texts: BatchText[], options: JobOptions, game?: string): BatchEntry[] {
  const entries = texts.flatMap((text) =>
    isJsonLines(text.name) ? jsonLinesEntries(text, options, game) : [fileEntry(text, options, game)],
  );
  entries.forEach(checkEntry);
  return entries;
}

/**
 * Reads the command line's sources: a file; a folder, as its files sorted by name (not its
 * subfolders, nor hidden files); `-` as standard input. Unreadable ones are refused naming them.
 */
export async function readBatchTexts(
  sources: string[],
  stdin: NodeJS.ReadableStream = process.stdin,
): Promise<BatchText[]> {
  const texts: BatchText[] = [];
  for (const source of sources) {
    if (source === '-') {
      texts.push({ name: '-', text: await readStream(stdin) });
      continue;
    }
    const kind = await stat(source).catch((err: NodeJS.ErrnoException) => {
      throw new InputError(source, `cannot read (${err.code ?? 'unknown error'})`);
    });
    const files = kind.isDirectory() ? await folderFiles(source) : [source];
    for (const file of files) texts.push({ name: file, text: await readText(file) });
  }
  if (texts.length === 0) throw new InputError('input', 'no files to submit');
  return texts;
}

async function folderFiles(folder: string): Promise<string[]> {
  const dirents = await readdir(folder, { withFileTypes: true });
  return dirents
    .filter((d) => d.isFile() && !d.name.startsWith('.'))
    .map((d) => d.name)
    .sort()
    .map((name) => join(folder, name));
}

async function readText(file: string): Promise<string> {
  try {
    return await readFile(file, 'utf8');
  } catch (err) {
    throw new InputError(file, `cannot read (${(err as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  }
}

/** The batch's default label: the first source's name (a file's or folder's), none for `-`. */
export function defaultLabel(sources: string[]): string | undefined {
  const first = sources[0];
  if (first === undefined || first === '-') return undefined;
  return basename(first.replace(/\/+$/, '')).slice(0, 200) || undefined;
}
