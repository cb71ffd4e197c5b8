import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * Writes DIMACS chunks to a file, one chunk in memory at a time (the stream pipeline waits for
 * the disk). For solvers that cannot read a formula from a socket on standard input. Rejects
 * with an AbortError when `signal` aborts first.
 */
export async function writeDimacsFile(
  path: string,
  chunks: Iterable<string>,
  signal?: AbortSignal,
): Promise<void> {
  await pipeline(Readable.from(chunks), createWriteStream(path), signal === undefined ? {} : { signal });
}
