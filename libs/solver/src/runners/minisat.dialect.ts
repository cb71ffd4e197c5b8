import { readFile } from 'node:fs/promises';
import { join } from 'node:path';

import type { ClaimedAnswer } from '../output/claimed-answer.js';
import { parseMinisatResult } from '../output/minisat-result.parser.js';
import { SearchStatisticsParser } from '../output/search-statistics.parser.js';
import type { SolverDialect, SolverOutputReader } from './solver-dialect.js';

const FORMULA_FILE = 'formula.cnf';
const RESULT_FILE = 'result.txt';

/**
 * minisat 2.2: reads the formula from a file and writes its answer to a result file, both in the
 * run's work directory; standard output carries only statistics. (Its standard input could take
 * the formula, but then it writes no model; and `/dev/stdin` cannot be opened when standard
 * input is the socket Node gives a child.)
 * It has no version option (the version is reported as plain `minisat`) and no configurations
 * for presets, which it ignores. Its report table is not read as progress: minisat does not
 * flush standard output, so through a pipe the table arrives only when the run ends.
 */
export const minisatDialect: SolverDialect = {
  name: 'minisat',
  versionArgs: ['--help'],
  parseVersion: () => 'minisat',
  usesWorkDir: true,
  formulaFile: (workDir) => join(workDir, FORMULA_FILE),
  args: (_preset, extraArgs, workDir) => {
    const dir = requireDir(workDir);
    return [...extraArgs, join(dir, FORMULA_FILE), join(dir, RESULT_FILE)];
  },
  reader: (workDir) => new MinisatReader(requireDir(workDir)),
};

class MinisatReader implements SolverOutputReader {
  private readonly statistics = new SearchStatisticsParser();

  constructor(private readonly workDir: string) {}

  stdoutLine(line: string): void {
    this.statistics.line(line);
  }

  async finish(): Promise<ClaimedAnswer> {
    let text: string;
    try {
      text = await readFile(join(this.workDir, RESULT_FILE), 'utf8');
    } catch {
      return {
        status: undefined,
        literals: [],
        modelClosed: false,
        problem: 'no result file',
        counters: this.statistics.counters,
      };
    }
    return { ...parseMinisatResult(text), counters: this.statistics.counters };
  }
}

function requireDir(workDir: string | undefined): string {
  if (workDir === undefined) throw new Error('minisat runs need a work directory');
  return workDir;
}
