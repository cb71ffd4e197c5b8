/** The answer a solver claims, before any check. */
export type ClaimedStatus = 'sat' | 'unsat' | 'unknown';

const STATUS_WORDS: Record<string, ClaimedStatus> = {
  SATISFIABLE: 'sat',
  UNSATISFIABLE: 'unsat',
  UNKNOWN: 'unknown',
};

/**
 * Reads the SAT-competition output format of kissat and cadical line by line: `c` comment
 * lines, exactly one `s` line (`s SATISFIABLE`, `s UNSATISFIABLE` or `s UNKNOWN`), and after
 * `s SATISFIABLE` the model on `v` lines, ended by the literal 0. Anything else is recorded as
 * a format problem (the first one wins) rather than guessed around.
 */
export class CompetitionOutputParser {
  status: ClaimedStatus | undefined;
  /** The literals of the `v` lines, without the closing 0. */
  readonly literals: number[] = [];
  /** Whether the `v` lines were closed by a 0. */
  modelClosed = false;
  /** The first deviation from the format. */
  problem: string | undefined;

  /** `onComment` receives each `c` line (progress reports, statistics). */
  constructor(private readonly onComment: (line: string) => void = () => undefined) {}

  line(line: string): void {
    if (line === '') return;
    if (line.length > 1 && line[1] !== ' ') return this.reject(line);
    switch (line[0]) {
      case 'c':
        return this.onComment(line);
      case 's':
        return this.statusLine(line);
      case 'v':
        return this.valueLine(line);
      default:
        return this.reject(line);
    }
  }

  private statusLine(line: string): void {
    const status = STATUS_WORDS[line.slice(2).trim()];
    if (status === undefined) return this.reject(line);
    if (this.status !== undefined) return this.note(`a second result line: '${line}'`);
    this.status = status;
  }

  private valueLine(line: string): void {
    if (this.status !== 'sat') return this.note(`a 'v' line without 's SATISFIABLE' before it`);
    for (const token of line.slice(1).trim().split(/\s+/)) {
      if (token === '') continue;
      if (!/^-?\d+$/.test(token)) return this.note(`'${token}' in a 'v' line is not a literal`);
      if (this.modelClosed) return this.note(`literals after the model's closing 0`);
      const lit = Number(token);
      if (lit === 0) this.modelClosed = true;
      else this.literals.push(lit);
    }
  }

  private reject(line: string): void {
    this.note(`unexpected output line '${line.slice(0, 80)}'`);
  }

  private note(problem: string): void {
    this.problem ??= problem;
  }
}
