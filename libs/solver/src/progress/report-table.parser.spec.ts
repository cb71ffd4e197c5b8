import { describe, expect, it } from 'vitest';

import { ReportTableParser } from './report-table.parser.js';

// Lines as printed by kissat 4.0.2 and by cadical 1.5.3 (Debian builds).
const KISSAT_HEADER = [
  'c seconds switched rate     size/glue tier1 binary   remaining',
  'c        MB reductions conflicts size  tier2 irredundant',
  'c         level restarts redundant glue  trail   variables',
  'c',
];
const KISSAT_REPORT = 'c -  0.03  4 10 0 1 129 2 1000 584 1.4 9 7 6 8 91% 176 46 99 110%';
const CADICAL_HEADER = [
  'c  seconds  reductions  redundant irredundant',
  'c         MB    restarts       trail    variables',
  'c          level   conflicts       glue     remaining',
  'c ',
];
const CADICAL_REPORT = 'c -  0.01  4  9 2  23  904  298 98% 7  415  90 100%';

function feed(sut: ReportTableParser, lines: string[]): void {
  for (const line of lines) expect(sut.parse(line)).toBeUndefined();
}

describe(ReportTableParser.name, () => {
  it("reads seconds, conflicts and active variables from kissat's table", () => {
    const sut = new ReportTableParser();
    feed(sut, KISSAT_HEADER);
    expect(sut.parse(KISSAT_REPORT)).toEqual({
      seconds: 0.03,
      conflicts: 1000,
      remainingVariables: 99,
      raw: KISSAT_REPORT,
    });
  });

  it("reads the same figures from cadical's differently laid out table", () => {
    const sut = new ReportTableParser();
    feed(sut, CADICAL_HEADER);
    expect(sut.parse(CADICAL_REPORT)).toEqual({
      seconds: 0.01,
      conflicts: 904,
      remainingVariables: 90,
      raw: CADICAL_REPORT,
    });
  });

  it('reads report lines whose event code is a digit, and keeps the columns across reprinted headers', () => {
    const sut = new ReportTableParser();
    feed(sut, KISSAT_HEADER);
    feed(sut, [
      'c seconds  switched   rate        size/glue  tier1    binary   remaining',
      'c        MB reductions  conflicts       size   tier2   irredundant',
      'c         level  restarts    redundant     glue    trail   variables',
    ]);
    const last = 'c 1  1.16  8 13 9 12 1652 1 29436 6100 1.4 14 10 5 12 86% 165 30 92 102%';
    expect(sut.parse(last)).toMatchObject({ seconds: 1.16, conflicts: 29436, remainingVariables: 92 });
  });

  it('ignores report-like lines before any header, and lines that do not fit the header', () => {
    const sut = new ReportTableParser();
    expect(sut.parse(KISSAT_REPORT)).toBeUndefined();
    feed(sut, KISSAT_HEADER);
    expect(sut.parse('c finished parsing after 0.00 seconds')).toBeUndefined();
    expect(
      sut.parse('c conflicts:                            29436            25207.30 per second'),
    ).toBeUndefined();
    expect(sut.parse(CADICAL_REPORT)).toBeUndefined();
    expect(sut.parse('s UNSATISFIABLE')).toBeUndefined();
  });

  it('drops a header that is cut short', () => {
    const sut = new ReportTableParser();
    feed(sut, [KISSAT_HEADER[0]!, 'c', ...CADICAL_HEADER]);
    expect(sut.parse(CADICAL_REPORT)).toMatchObject({ conflicts: 904 });
  });
});
