import type { SolverProgress } from '../solver.types.js';

const HEADER_LINES = 3;
const COLUMN_NAME = /^[a-zA-Z][a-zA-Z0-9/]*$/;

/**
 * Turns the periodic report lines of kissat and cadical into progress events. Their table's
 * header names column k on header line k mod 3; columns are looked up by name, so another
 * version's layout still parses, and a line whose value count differs from the header's is
 * skipped (docs/solvers.md#progress-reports has the layouts and the columns read).
 */
export class ReportTableParser {
  private columns: string[] | undefined;
  private header: string[][] | undefined;

  /** Reads one `c` line; returns the progress it reports, if it is a report line. */
  parse(line: string): SolverProgress | undefined {
    const words = line.split(' ').filter((w) => w !== '');
    if (words[0] !== 'c') return undefined;
    const fields = words.slice(1);
    if (this.header !== undefined) return this.headerLine(fields);
    if (fields[0] === 'seconds' && fields.every((f) => COLUMN_NAME.test(f))) {
      this.header = [fields];
      return undefined;
    }
    const columns = this.columns;
    if (columns === undefined || fields.length !== columns.length + 1 || fields[0]?.length !== 1)
      return undefined;
    const values = fields.slice(1);
    const value = (name: string): number | undefined => {
      const text = values[columns.indexOf(name)];
      const n = text === undefined ? Number.NaN : Number.parseFloat(text);
      return Number.isFinite(n) ? n : undefined;
    };
    const seconds = value('seconds');
    if (seconds === undefined) return undefined;
    const progress: SolverProgress = { seconds, raw: line };
    const conflicts = value('conflicts');
    if (conflicts !== undefined) progress.conflicts = conflicts;
    const remainingVariables = value('variables');
    if (remainingVariables !== undefined) progress.remainingVariables = remainingVariables;
    return progress;
  }

  private headerLine(fields: string[]): undefined {
    const header = this.header ?? [];
    if (fields.length === 0 || !fields.every((f) => COLUMN_NAME.test(f))) {
      this.header = undefined;
      return undefined;
    }
    header.push(fields);
    if (header.length === HEADER_LINES) {
      this.columns = interleave(header);
      this.header = undefined;
    }
    return undefined;
  }
}

function interleave(lines: readonly string[][]): string[] {
  const columns: string[] = [];
  for (let k = 0; ; k++) {
    const name = lines[k % lines.length]?.[Math.floor(k / lines.length)];
    if (name === undefined) return columns;
    columns.push(name);
  }
}
