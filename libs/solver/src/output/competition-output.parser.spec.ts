import { describe, expect, it } from 'vitest';

import { CompetitionOutputParser } from './competition-output.parser.js';

function parse(lines: string[]): { sut: CompetitionOutputParser; comments: string[] } {
  const comments: string[] = [];
  const sut = new CompetitionOutputParser((line) => comments.push(line));
  for (const line of lines) sut.line(line);
  return { sut, comments };
}

describe(CompetitionOutputParser.name, () => {
  it('reads the status and a model spread over several v lines', () => {
    const { sut, comments } = parse(['c kissat', 's SATISFIABLE', 'v 1 -2 3', 'v -4 5 0', 'c', 'c exit 10']);
    expect(sut.status).toBe('sat');
    expect(sut.literals).toEqual([1, -2, 3, -4, 5]);
    expect(sut.modelClosed).toBe(true);
    expect(sut.problem).toBeUndefined();
    expect(comments).toEqual(['c kissat', 'c', 'c exit 10']);
  });

  it.each([
    ['s UNSATISFIABLE', 'unsat'],
    ['s UNKNOWN', 'unknown'],
  ] as const)('reads %s', (line, status) => {
    const { sut } = parse([line]);
    expect(sut.status).toBe(status);
    expect(sut.problem).toBeUndefined();
  });

  it.each([
    [['hello'], /unexpected output line 'hello'/],
    [['cx comment'], /unexpected output line/],
    [['s SATISFIABLE', 's SATISFIABLE'], /second result line/],
    [['s UNSATISFIABLE', 'v 1 0'], /without 's SATISFIABLE'/],
    [['v 1 0', 's SATISFIABLE'], /without 's SATISFIABLE'/],
    [['s SATISFIABLE', 'v 1 0 2'], /after the model's closing 0/],
    [['s SATISFIABLE', 'v 1 0', 'v 2 0'], /after the model's closing 0/],
    [['s SATISFIABLE', 'v 1 1.5 0'], /'1.5'/],
    [['s PERHAPS'], /s PERHAPS/],
  ])('records the format problem in %j', (lines, problem) => {
    const { sut } = parse(lines);
    expect(sut.problem).toMatch(problem);
  });

  it('keeps the first problem', () => {
    const { sut } = parse(['garbage one', 'garbage two']);
    expect(sut.problem).toMatch(/garbage one/);
  });
});
