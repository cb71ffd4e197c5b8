import type { ClaimedStatus } from './competition-output.parser.js';
import type { SearchCounters } from './search-statistics.parser.js';

/** Everything a finished solver run printed or wrote, read but not yet trusted. */
export interface ClaimedAnswer {
  status: ClaimedStatus | undefined;
  /** Model literals, without the closing 0. */
  literals: readonly number[];
  /** Whether the model was closed by a 0. */
  modelClosed: boolean;
  /** The first deviation from the solver's output format. */
  problem: string | undefined;
  counters: SearchCounters;
  /** Conflicts in the last progress report, for runs stopped before their statistics. */
  lastConflicts?: number;
}
