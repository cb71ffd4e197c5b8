import { CompetitionFormatReader } from './competition-format.reader.js';
import { presetArgs, seedArgs } from './solver-preset.js';
import type { SolverDialect } from './solver-dialect.js';
import { firstLine } from './solver-version.js';

/**
 * kissat: reads DIMACS from standard input when given no file, prints the SAT-competition
 * format, and flushes each report line, so progress arrives live through the pipe.
 */
export const kissatDialect: SolverDialect = {
  name: 'kissat',
  versionArgs: ['--version'],
  parseVersion: (stdout) => `kissat ${firstLine(stdout)}`.trim(),
  usesWorkDir: false,
  // `<dimacs> <proof>`: a binary DRAT proof (the default when the proof is not a terminal).
  proofArgs: (formulaFile, proofFile) => [formulaFile, proofFile],
  args: (preset, extraArgs, _workDir, seed) => [...presetArgs(preset), ...seedArgs(seed), ...extraArgs],
  reader: (_workDir, onProgress) => new CompetitionFormatReader(onProgress),
};
