import type { SolverProgress } from '../solver.types.js';

const HEADER_LINES = 3;
const COLUMN_NAME = /^[a-zA-Z][a-zA-Z0-9/]*$/;

/**
 * Turns the periodic report lines of kissat and cadical into progress events.
 *
 * Both print a table whose header is three `c` lines that name the columns in turn: column k is
 * named on header line k mod 3, so reading the three lines' words round-robin gives the column
 * order. With kissat 4.0.2 that is seconds, MB, level, switched, reductions, restarts, rate,
 * conflicts, redundant, size/glue, size, glue, tier1, tier2, trail, binary, irredundant,
 * variables, remaining; with cadical 1.5.3 seconds, MB, level, reductions, restarts, conflicts,
 * redundant, trail, glue, irredundant, variables, remaining. A report line is `c`, a
 * one-character event code (`-` reduce, `{` `}` mode switch, `e` eliminate, ...) and one value
 * per column. Columns are looked up by name, so another version's layout still parses. Read:
 * - `seconds`: time since the start as the solver measures it, the axis of any progress view;
 * - `conflicts`: search effort so far, growing through the run, comparable between runs;
 * - `variables`: variables still active (neither fixed nor eliminated), how far the formula has
 *   shrunk (`remaining` beside it is the same figure as a percentage, so it is not read).
 * A line whose value count differs from the header's column count is not a report and is skipped.
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
