import { CnfFormula } from './cnf-formula.js';
import { DimacsSyntaxError } from './dimacs-syntax-error.js';
import type { Lit } from './variable-pool.js';

const MAX_COUNT = 0x7fffffff;

const NEWLINE = 10;
const SPACE = 32;
const TAB = 9;
const CR = 13;
const VT = 11;
const FF = 12;
const MINUS = 45;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
const LETTER_C = 99;
const LETTER_P = 112;
const PERCENT = 37;
const BOM = 0xfeff;

/**
 * Parses DIMACS CNF text strictly, by the rules of docs/cli.md#instance-formats (`cnf`); every
 * problem is a {@link DimacsSyntaxError} naming its line. The formula's pool reserves variables
 * 1..`variables` even when some do not occur.
 */
export function parseDimacs(text: string): CnfFormula {
  const len = text.length;
  let pos = len > 0 && text.charCodeAt(0) === BOM ? 1 : 0;
  let line = 1;
  let lastContentLine = 1;
  let headerLine = 0;
  let maxVar = 0;
  let declaredClauses = 0;
  let clauseCount = 0;
  const clause: Lit[] = [];
  const formula = new CnfFormula();

  const tokenAt = (start: number): string => {
    let end = start;
    while (end < len && !isBlank(text.charCodeAt(end)) && text.charCodeAt(end) !== NEWLINE) end++;
    return text.slice(start, end);
  };

  lines: while (pos < len) {
    let c = text.charCodeAt(pos);
    while (isBlank(c)) c = ++pos < len ? text.charCodeAt(pos) : NEWLINE;
    if (pos >= len) break;
    if (c === NEWLINE) {
      pos++;
      line++;
      continue;
    }
    lastContentLine = line;
    if (c === LETTER_C) {
      while (pos < len && text.charCodeAt(pos) !== NEWLINE) pos++;
      continue;
    }
    if (c === PERCENT) break;
    if (c === LETTER_P) {
      if (headerLine !== 0)
        throw new DimacsSyntaxError(line, `second header (the first is on line ${headerLine})`);
      const fields = headerFields(text, pos, len);
      if (fields === undefined) {
        throw new DimacsSyntaxError(
          line,
          `malformed header '${lineAt(text, pos)}' (expected 'p cnf <variables> <clauses>')`,
        );
      }
      const [vars, clauses, end] = fields;
      if (vars > MAX_COUNT)
        throw new DimacsSyntaxError(line, `header declares ${vars} variables, more than ${MAX_COUNT}`);
      if (clauses > MAX_COUNT)
        throw new DimacsSyntaxError(line, `header declares ${clauses} clauses, more than ${MAX_COUNT}`);
      headerLine = line;
      maxVar = vars;
      declaredClauses = clauses;
      formula.pool.reserve(vars);
      pos = end;
      continue;
    }
    while (pos < len) {
      c = text.charCodeAt(pos);
      if (c === NEWLINE) continue lines;
      if (isBlank(c)) {
        pos++;
        continue;
      }
      const start = pos;
      const negative = c === MINUS;
      if (negative) c = ++pos < len ? text.charCodeAt(pos) : SPACE;
      if (c < DIGIT_0 || c > DIGIT_9)
        throw new DimacsSyntaxError(line, `malformed literal '${tokenAt(start)}'`);
      let value = 0;
      while (c >= DIGIT_0 && c <= DIGIT_9) {
        if (value <= MAX_COUNT) value = value * 10 + (c - DIGIT_0);
        c = ++pos < len ? text.charCodeAt(pos) : SPACE;
      }
      if (!isBlank(c) && c !== NEWLINE)
        throw new DimacsSyntaxError(line, `malformed literal '${tokenAt(start)}'`);
      if (headerLine === 0)
        throw new DimacsSyntaxError(line, `clause before the header 'p cnf <variables> <clauses>'`);
      if (clause.length === 0 && clauseCount === declaredClauses) {
        throw new DimacsSyntaxError(line, `more clauses than the header declares (${declaredClauses})`);
      }
      if (value === 0) {
        formula.add(clause);
        clauseCount++;
        clause.length = 0;
      } else if (value > maxVar) {
        throw new DimacsSyntaxError(
          line,
          `literal ${tokenAt(start)} out of range (header declares ${maxVar} variables)`,
        );
      } else {
        clause.push(negative ? -value : value);
      }
    }
  }

  line = lastContentLine;
  if (headerLine === 0) throw new DimacsSyntaxError(line, `missing header 'p cnf <variables> <clauses>'`);
  if (clause.length > 0) {
    formula.add(clause);
    clauseCount++;
  }
  if (clauseCount !== declaredClauses) {
    throw new DimacsSyntaxError(
      line,
      `header declares ${declaredClauses} clauses but the text has ${clauseCount}`,
    );
  }
  return formula;
}

function isBlank(c: number): boolean {
  return c === SPACE || c === TAB || c === CR || c === VT || c === FF;
}

/** `p cnf V C` at `pos`: [V, C, index of the line's end], or undefined when malformed. */
function headerFields(text: string, pos: number, len: number): [number, number, number] | undefined {
  const words: string[] = [];
  let end = pos;
  while (end < len && text.charCodeAt(end) !== NEWLINE) end++;
  for (const word of text.slice(pos, end).split(/[ \t\r\v\f]+/)) if (word !== '') words.push(word);
  if (words.length !== 4 || words[0] !== 'p' || words[1] !== 'cnf') return undefined;
  if (!/^\d+$/.test(words[2]!) || !/^\d+$/.test(words[3]!)) return undefined;
  return [Number(words[2]), Number(words[3]), end];
}

function lineAt(text: string, pos: number): string {
  const end = text.indexOf('\n', pos);
  return text.slice(pos, end === -1 ? text.length : end).trim();
}
