import { CompetitionFormatReader } from './competition-format.reader.js';
import { presetArgs, seedArgs } from './solver-preset.js';
import type { SolverDialect } from './solver-dialect.js';
import { firstLine } from './solver-version.js';

/**
 * cadical: like kissat (standard input, SAT-competition format, flushed report lines), except
 * that a run stopped by one of its own limits prints `c UNKNOWN` instead of `s UNKNOWN`. The
 * Debian build of 1.5.3 reports its version as `sc2021`.
 */
export const cadicalDialect: SolverDialect = {
  name: 'cadical',
  versionArgs: ['--version'],
  parseVersion: (stdout) => `cadical ${firstLine(stdout)}`.trim(),
  usesWorkDir: false,
  // `<dimacs> <proof>`: a binary DRAT proof (the default when the proof is not a terminal).
  proofArgs: (formulaFile, proofFile) => [formulaFile, proofFile],
  args: (preset, extraArgs, _workDir, seed) => [...presetArgs(preset), ...seedArgs(seed), ...extraArgs],
  reader: (_workDir, onProgress) => new CompetitionFormatReader(onProgress, 'c UNKNOWN'),
};
