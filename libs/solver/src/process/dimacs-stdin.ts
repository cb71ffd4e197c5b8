import type { Writable } from 'node:stream';

/**
 * Writes DIMACS text to a solver's standard input chunk by chunk, waiting for 'drain' whenever
 * the pipe is full, so a large formula never sits in memory twice. A solver may exit before it
 * has read everything (a parse error, a crash, a kill): the EPIPE that follows only ends the
 * writing, because the exit status, not the pipe, tells what happened.
 */
export async function writeDimacs(stdin: Writable, chunks: Iterable<string>): Promise<void> {
  let broken = false;
  // Stays attached for the stream's lifetime: an EPIPE can arrive even after end().
  stdin.on('error', () => {
    broken = true;
  });
  for (const chunk of chunks) {
    if (broken || stdin.destroyed) return;
    if (!stdin.write(chunk)) await drained(stdin);
  }
  if (!broken && !stdin.destroyed) stdin.end();
}

function drained(stream: Writable): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      stream.off('drain', done);
      stream.off('close', done);
      stream.off('error', done);
      resolve();
    };
    stream.on('drain', done);
    stream.on('close', done);
    stream.on('error', done);
  });
}
