import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';

import { InputError } from '@satfarm/games';

/**
 * Reads the instance named by `--input` (or another option's value, named by `field` in errors,
 * such as `--plan`): a file path, `-` for standard input, or inline JSON (a value starting with
 * `{`, `[` or `"`). JSON text is parsed; anything else (DIMACS, a Tatham game ID,
 * moves) is passed on as text for the game's parser.
 */
export async function readInput(
  source: string | undefined,
  stdin: NodeJS.ReadStream = process.stdin,
  field = 'input',
): Promise<unknown> {
  let text: string;
  if (source === undefined || source === '-') {
    if (source === undefined && stdin.isTTY)
      throw new InputError(field, `required: give --${field} FILE, or - for standard input`);
    text = await readStream(stdin);
  } else if (/^\s*[[{"]/.test(source)) {
    text = source;
  } else {
    try {
      text = await readFile(source, 'utf8');
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code ?? 'unknown error';
      throw new InputError(field, `cannot read file '${source}' (${code})`);
    }
  }
  return parseInputText(text, field);
}

/**
 * An instance's text as the games read it: JSON text (an object, a list or a string literal) is
 * parsed; anything else (DIMACS, a Tatham game ID, moves) is passed on as text. Empty text and
 * broken JSON are refused naming `field`.
 */
export function parseInputText(text: string, field = 'input'): unknown {
  const trimmed = text.trim();
  if (trimmed === '') throw new InputError(field, 'is empty');
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch (err) {
      throw new InputError(field, `invalid JSON: ${(err as Error).message}`);
    }
  }
  // A JSON string literal such as "5:3/2/..." is accepted too.
  if (trimmed.startsWith('"')) {
    try {
      return JSON.parse(trimmed) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/**
 * Reads `--plan` as `readInput` reads `--input` (errors name `plan`), and one thing more: a value
 * that is no file and does not look like a path (no `/`, no `.ext` ending) is the moves as text,
 * such as `--plan "N NE J"` or `--plan "R U2 F'"`, for the game to read. `-` is refused when
 * standard input holds the instance.
 */
export async function readPlan(plan: string | undefined, input: string | undefined): Promise<unknown> {
  if (plan === undefined) return undefined;
  if (plan === '-' && (input === undefined || input === '-')) {
    throw new InputError('plan', 'standard input already holds the instance; give the plan as a file');
  }
  const inlineMoves =
    plan !== '-' && !/^\s*[[{"]/.test(plan) && !/\/|\.\w+$/.test(plan.trim()) && !existsSync(plan);
  if (inlineMoves) {
    if (plan.trim() === '') throw new InputError('plan', 'is empty');
    return plan;
  }
  return readInput(plan, process.stdin, 'plan');
}

/** The whole of a stream as UTF-8 text. */
export async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString('utf8');
}
