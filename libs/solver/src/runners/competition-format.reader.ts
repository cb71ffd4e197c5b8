import type { ClaimedAnswer } from '../output/claimed-answer.js';
import { CompetitionOutputParser } from '../output/competition-output.parser.js';
import { SearchStatisticsParser } from '../output/search-statistics.parser.js';
import { ReportTableParser } from '../progress/report-table.parser.js';
import type { SolverProgress } from '../solver.types.js';
import type { SolverOutputReader } from './solver-dialect.js';

/**
 * The output reader of kissat and cadical: the SAT-competition format on standard output, with
 * progress report lines and closing statistics among its comments. `unknownComment`, when set,
 * is a comment line that stands for `s UNKNOWN` (cadical prints `c UNKNOWN` when a limit stops it).
 */
export class CompetitionFormatReader implements SolverOutputReader {
  private readonly output: CompetitionOutputParser;
  private readonly statistics = new SearchStatisticsParser();
  private readonly reports = new ReportTableParser();
  private sawUnknownComment = false;
  private lastConflicts: number | undefined;

  constructor(
    private readonly onProgress: ((p: SolverProgress) => void) | undefined,
    private readonly unknownComment?: string,
  ) {
    this.output = new CompetitionOutputParser((line) => this.comment(line));
  }

  stdoutLine(line: string): void {
    this.output.line(line);
  }

  finish(): Promise<ClaimedAnswer> {
    const status = this.output.status ?? (this.sawUnknownComment ? 'unknown' : undefined);
    return Promise.resolve({
      status,
      literals: this.output.literals,
      modelClosed: this.output.modelClosed,
      problem: this.output.problem,
      counters: this.statistics.counters,
      lastConflicts: this.lastConflicts,
    });
  }

  private comment(line: string): void {
    if (line === this.unknownComment) this.sawUnknownComment = true;
    if (this.statistics.line(line)) return;
    const progress = this.reports.parse(line);
    if (progress === undefined) return;
    if (progress.conflicts !== undefined) this.lastConflicts = progress.conflicts;
    this.onProgress?.(progress);
  }
}
