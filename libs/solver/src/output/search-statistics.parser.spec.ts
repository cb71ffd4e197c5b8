import { describe, expect, it } from 'vitest';

import { SearchStatisticsParser } from './search-statistics.parser.js';

describe(SearchStatisticsParser.name, () => {
  it('reads the closing counters of kissat and cadical', () => {
    const sut = new SearchStatisticsParser();
    for (const line of [
      'c conflicts:                            29436            25207.30 per second',
      'c decisions:                            42284                1.44 per conflict',
      'c probing_propagations:                  9              100 %  propagations',
      'c propagations:                        638347           546644    per second',
    ]) {
      sut.line(line);
    }
    expect(sut.counters).toEqual({ conflicts: 29436, decisions: 42284, propagations: 638347 });
  });

  it("reads minisat's counters", () => {
    const sut = new SearchStatisticsParser();
    expect(sut.line('conflicts             : 551941         (181786 /sec)')).toBe(true);
    expect(sut.line('decisions             : 669045         (0.00 % random) (220356 /sec)')).toBe(true);
    expect(sut.line('conflict literals     : 15214265       (9.56 % deleted)')).toBe(false);
    expect(sut.counters).toEqual({ conflicts: 551941, decisions: 669045 });
  });
});
