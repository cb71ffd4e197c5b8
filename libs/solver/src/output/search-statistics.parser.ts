/** Search counters from a solver's closing statistics. */
export interface SearchCounters {
  conflicts?: number;
  decisions?: number;
  propagations?: number;
}

const COUNTER_LINE = /^(?:c )?(conflicts|decisions|propagations)\s*:\s+(\d+)/;

/**
 * Picks the search counters out of the statistics a solver prints when it finishes: kissat and
 * cadical write `c conflicts: 29436 ...`, minisat writes `conflicts : 551941 (...)`. Longer
 * names such as kissat's `c probing_propagations:` do not match.
 */
export class SearchStatisticsParser {
  readonly counters: SearchCounters = {};

  /** Reads one output line; returns whether it was a counter line. */
  line(line: string): boolean {
    const match = COUNTER_LINE.exec(line);
    if (match === null) return false;
    this.counters[match[1] as keyof SearchCounters] = Number(match[2]);
    return true;
  }
}
