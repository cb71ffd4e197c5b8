import { buildProgram, exitCodeForError } from './program.js';

try {
  await buildProgram().parseAsync(process.argv);
} catch (err) {
  process.exitCode = exitCodeForError(err);
}
