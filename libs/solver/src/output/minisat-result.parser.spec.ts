import { describe, expect, it } from 'vitest';

import { parseMinisatResult } from './minisat-result.parser.js';

describe(parseMinisatResult.name, () => {
  it('reads SAT with its model', () => {
    expect(parseMinisatResult('SAT\n1 -2 -3 4 0\n')).toEqual({
      status: 'sat',
      literals: [1, -2, -3, 4],
      modelClosed: true,
      problem: undefined,
    });
  });

  it('reads the model of a formula without variables', () => {
    expect(parseMinisatResult('SAT\n 0\n')).toMatchObject({ status: 'sat', literals: [], modelClosed: true });
  });

  it.each([
    ['UNSAT\n', 'unsat'],
    ['INDET\n', 'unknown'],
  ] as const)('reads %j', (text, status) => {
    expect(parseMinisatResult(text)).toMatchObject({ status, problem: undefined });
  });

  it.each([
    ['', /empty result file/],
    ['SATISFIABLE\n1 0\n', /unexpected result 'SATISFIABLE'/],
    ['SAT\n1 two 0\n', /'two'/],
    ['SAT\n1 0 2\n', /after the model's closing 0/],
    ['UNSAT\n1 0\n', /unexpected text after 'UNSAT'/],
  ])('records the problem in %j', (text, problem) => {
    expect(parseMinisatResult(text).problem).toMatch(problem);
  });

  it('leaves an unclosed model marked as such', () => {
    expect(parseMinisatResult('SAT\n1 -2\n')).toMatchObject({
      status: 'sat',
      modelClosed: false,
      problem: undefined,
    });
  });
});
