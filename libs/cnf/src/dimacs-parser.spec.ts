import { describe, expect, it } from 'vitest';

import { CnfFormula } from './cnf-formula.js';
import { parseDimacs } from './dimacs-parser.js';
import { DimacsSyntaxError } from './dimacs-syntax-error.js';
import { exactlyK } from './encodings/cardinality.encoding.js';
import { xorOf } from './encodings/tseitin.encoding.js';

function clausesOf(f: CnfFormula): number[][] {
  return Array.from(f.clauses(), (c) => Array.from(c));
}

/** The error `parseDimacs(text)` throws, for assertions on its fields. */
function syntaxErrorOf(text: string): DimacsSyntaxError {
  try {
    parseDimacs(text);
  } catch (err) {
    if (err instanceof DimacsSyntaxError) return err;
    throw err;
  }
  throw new Error('expected a DimacsSyntaxError');
}

describe(parseDimacs.name, () => {
  it('reads back what CnfFormula.toDimacs() writes, comments aside', () => {
    const original = new CnfFormula();
    original.comment('a cardinality and a parity');
    const inputs = original.pool.freshBlock(9);
    exactlyK(original, inputs, 4, 'sequential');
    original.add([-xorOf(original, inputs)]);
    original.add([]);
    original.pool.fresh();
    const sut = parseDimacs(original.toDimacs());
    expect(sut.numVars).toBe(original.numVars);
    expect(clausesOf(sut)).toEqual(clausesOf(original));
    expect(sut.toDimacs()).toBe(original.toDimacs().replace(/^c .*\n/, ''));
  });

  it('reads back a formula spread over many output chunks', () => {
    const original = new CnfFormula();
    const lits = original.pool.freshBlock(300);
    exactlyK(original, lits, 20, 'totalizer');
    expect(Array.from(original.dimacsChunks()).length).toBeGreaterThan(1);
    expect(clausesOf(parseDimacs(original.toDimacs()))).toEqual(clausesOf(original));
  });

  it('accepts comments anywhere, clauses across lines, blank lines, tabs, CRLF and a byte order mark', () => {
    const text =
      '\uFEFFc start\r\n\r\np cnf 4 3\r\n1 -2\r\nc inside a clause\r\n\t3 0 -4 0\r\n\r\n2 4 0\r\nc end\r\n';
    const sut = parseDimacs(text);
    expect(sut.numVars).toBe(4);
    expect(clausesOf(sut)).toEqual([[1, -2, 3], [-4], [2, 4]]);
  });

  it('stops at the % end marker of SATLIB files', () => {
    const sut = parseDimacs('c uf3\np cnf 3 2\n 1 -3 2 0\n-1 2 3 0\n%\n0\n\n');
    expect(clausesOf(sut)).toEqual([
      [1, -3, 2],
      [-1, 2, 3],
    ]);
  });

  it('counts a last clause without its 0, and reads an empty clause', () => {
    expect(clausesOf(parseDimacs('p cnf 2 2\n0\n1 -2'))).toEqual([[], [1, -2]]);
    expect(clausesOf(parseDimacs('p cnf 2 1\n1 -2\n%\n'))).toEqual([[1, -2]]);
  });

  it('reserves every declared variable, used or not, and reads no clause from an empty body', () => {
    const sut = parseDimacs('p cnf 5000000 0\n');
    expect(sut.numVars).toBe(5_000_000);
    expect(sut.numClauses).toBe(0);
  });

  it.each([
    ['', 1, "missing header 'p cnf <variables> <clauses>'"],
    ['c only\nc comments\n', 2, "missing header 'p cnf <variables> <clauses>'"],
    ['c x\n1 2 0\np cnf 2 1\n', 2, "clause before the header 'p cnf <variables> <clauses>'"],
    ['p cnf 3\n1 0\n', 1, "malformed header 'p cnf 3' (expected 'p cnf <variables> <clauses>')"],
    ['p dnf 3 1\n1 0\n', 1, "malformed header 'p dnf 3 1' (expected 'p cnf <variables> <clauses>')"],
    ['p cnf -3 1\n1 0\n', 1, "malformed header 'p cnf -3 1' (expected 'p cnf <variables> <clauses>')"],
    ['p cnf 3 1 1\n1 0\n', 1, "malformed header 'p cnf 3 1 1' (expected 'p cnf <variables> <clauses>')"],
    ['p cnf 3 1\nc\np cnf 3 1\n1 0\n', 3, 'second header (the first is on line 1)'],
    ['p cnf 3000000000 1\n1 0\n', 1, 'header declares 3000000000 variables, more than 2147483647'],
    ['p cnf 3 3000000000\n1 0\n', 1, 'header declares 3000000000 clauses, more than 2147483647'],
    ['p cnf 10 2\nc\nc\nc\n\n1 2 0\n3 12 0\n', 7, 'literal 12 out of range (header declares 10 variables)'],
    ['p cnf 10 1\n-11 0\n', 2, 'literal -11 out of range (header declares 10 variables)'],
    [
      'p cnf 10 1\n99999999999999999999 0\n',
      2,
      'literal 99999999999999999999 out of range (header declares 10 variables)',
    ],
    ['p cnf 3 1\n1 x 0\n', 2, "malformed literal 'x'"],
    ['p cnf 3 1\n1 2a 0\n', 2, "malformed literal '2a'"],
    ['p cnf 3 1\n1 - 2 0\n', 2, "malformed literal '-'"],
    ['p cnf 3 1\n+1 0\n', 2, "malformed literal '+1'"],
    ['p cnf 3 1\n1 2.5 0\n', 2, "malformed literal '2.5'"],
    ['p cnf 3 1\n1 0\n\n2 0\n', 4, 'more clauses than the header declares (1)'],
    ['p cnf 3 0\n0\n', 2, 'more clauses than the header declares (0)'],
    ['p cnf 3 3\n1 0\n2 0\n\n', 3, 'header declares 3 clauses but the text has 2'],
    ['p cnf 3 2\n1 0\n%\n2 0\n', 3, 'header declares 2 clauses but the text has 1'],
  ])('rejects %j at line %i: %s', (text, line, reason) => {
    const err = syntaxErrorOf(text);
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('DimacsSyntaxError');
    expect(err.line).toBe(line);
    expect(err.reason).toBe(reason);
    expect(err.message).toBe(`line ${line}: ${reason}`);
  });
});
