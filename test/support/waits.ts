import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a wait lasts, and what it waits for (named in the error when it times out). */
export interface WaitOptions {
  what: string;
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

/**
 * Re-checks `condition` until it returns a value other than `undefined` or `false`, and resolves
 * with it. Only for what no event announces (the process table): everything else is awaited on
 * its event. Fails naming `what`, and the last value seen, after `timeoutMs`.
 */
export async function waitUntil<T>(
  condition: () => T | undefined | false | Promise<T | undefined | false>,
  { what, timeoutMs = DEFAULT_TIMEOUT_MS, everyMs = 20 }: WaitOptions & { everyMs?: number },
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await condition();
    if (value !== undefined && value !== false) return value;
    if (Date.now() >= deadline) throw new Error(`waited ${timeoutMs} ms for ${what}, in vain`);
    await sleep(everyMs);
  }
}

/** Rejects naming `what` if `promise` has not settled within `timeoutMs`. */
export async function within<T>(
  promise: Promise<T>,
  { what, timeoutMs = DEFAULT_TIMEOUT_MS }: WaitOptions,
): Promise<T> {
  const timeout = new AbortController();
  try {
    return await Promise.race([
      promise,
      sleep(timeoutMs, undefined, { signal: timeout.signal }).then(() => {
        throw new Error(`waited ${timeoutMs} ms for ${what}, in vain`);
      }),
    ]);
  } finally {
    timeout.abort();
  }
}

/**
 * Resolves with the match of the first line of `stream` that matches `pattern`, read as it
 * arrives; rejects naming `what` if the stream ends first, or after `timeoutMs`. The stream keeps
 * flowing for its other readers.
 */
export function lineMatching(
  stream: Readable,
  pattern: RegExp,
  options: WaitOptions,
): Promise<RegExpExecArray> {
  let partial = '';
  let onData!: (chunk: Buffer | string) => void;
  let onEnd!: () => void;
  const found = new Promise<RegExpExecArray>((resolve, reject) => {
    onData = (chunk) => {
      const lines = (partial + chunk.toString()).split('\n');
      partial = lines.pop()!;
      for (const line of lines) {
        const match = pattern.exec(line);
        if (match) return resolve(match);
      }
    };
    onEnd = () => {
      const match = pattern.exec(partial);
      if (match) resolve(match);
      else reject(new Error(`the output ended before ${options.what}`));
    };
    stream.on('data', onData);
    stream.once('end', onEnd);
  });
  return within(found, options).finally(() => {
    stream.off('data', onData);
    stream.off('end', onEnd);
  });
}

/** Resolves with `child`'s exit code (or signal) once it has exited, at once if it already has. */
export async function exitOf(child: ChildProcess): Promise<number | NodeJS.Signals> {
  if (child.exitCode !== null) return child.exitCode;
  if (child.signalCode !== null) return child.signalCode;
  const [code, signal] = (await once(child, 'exit')) as [number | null, NodeJS.Signals | null];
  return code ?? signal!;
}
