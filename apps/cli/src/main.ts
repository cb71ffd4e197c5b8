import { buildProgram, exitCodeForError } from './program.js';

// A reader that stops early (`satfarm generate cnf ... | head`) closes the pipe: end quietly with
// the exit code reached so far, not with an unhandled EPIPE and its stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code !== 'EPIPE') throw err;
  process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
});

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  process.exitCode = exitCodeForError(err);
}
