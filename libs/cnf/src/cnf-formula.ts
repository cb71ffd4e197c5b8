import { checkBuildLimits } from './build-limits.js';
import { type Lit, VariablePool } from './variable-pool.js';

/** Where clauses go: a formula in memory, a counter, or any other consumer. */
export interface ClauseSink {
  /** Adds one clause (a disjunction of literals). An empty clause makes the formula UNSAT. */
  add(clause: ArrayLike<Lit> & Iterable<Lit>): void;
}

/** Size figures of a formula, as reported in job statistics. */
export interface FormulaStats {
  vars: number;
  clauses: number;
  literals: number;
}

const CHUNK_CHARS = 1 << 16;
/** How often (in clauses) a growing formula looks at its build limits (build-limits.ts). */
const LIMITS_EVERY_CLAUSES = 1 << 12;

/**
 * A CNF formula with its variable pool. Clauses are kept as 0-terminated literals in one growable
 * Int32Array (4 bytes a literal), and DIMACS text is produced in chunks, never as one string.
 */
export class CnfFormula implements ClauseSink {
  readonly pool: VariablePool;
  private lits = new Int32Array(1 << 12);
  private length = 0;
  private clauseCount = 0;
  private readonly comments: string[] = [];

  constructor(pool: VariablePool = new VariablePool()) {
    this.pool = pool;
  }

  add(clause: ArrayLike<Lit> & Iterable<Lit>): void {
    if (this.clauseCount % LIMITS_EVERY_CLAUSES === 0) checkBuildLimits(this.length * 4);
    this.ensure(clause.length + 1);
    for (const lit of clause) {
      if (!Number.isInteger(lit) || lit === 0) throw new RangeError(`invalid literal ${lit}`);
      if (Math.abs(lit) > this.pool.size)
        throw new RangeError(`literal ${lit} names an unallocated variable`);
      this.lits[this.length++] = lit;
    }
    this.lits[this.length++] = 0;
    this.clauseCount++;
  }

  /** Adds several clauses. */
  addAll(clauses: Iterable<ArrayLike<Lit> & Iterable<Lit>>): void {
    for (const c of clauses) this.add(c);
  }

  /** A `c` line written before the header. */
  comment(text: string): void {
    this.comments.push(text.replace(/\n/g, ' '));
  }

  get numVars(): number {
    return this.pool.size;
  }

  get numClauses(): number {
    return this.clauseCount;
  }

  get stats(): FormulaStats {
    return { vars: this.numVars, clauses: this.clauseCount, literals: this.length - this.clauseCount };
  }

  /** Every clause, as a view into the formula's storage (copy it to keep it). */
  *clauses(): IterableIterator<Int32Array> {
    let start = 0;
    for (let i = 0; i < this.length; i++) {
      if (this.lits[i] === 0) {
        yield this.lits.subarray(start, i);
        start = i + 1;
      }
    }
  }

  /** DIMACS text in chunks of about 64 KiB: header first, then one clause per line. */
  *dimacsChunks(): IterableIterator<string> {
    let buf = '';
    for (const c of this.comments) buf += `c ${c}\n`;
    buf += `p cnf ${this.numVars} ${this.clauseCount}\n`;
    let line: string[] = [];
    for (let i = 0; i < this.length; i++) {
      const lit = this.lits[i]!;
      if (lit === 0) {
        line.push('0\n');
        buf += line.join(' ');
        line = [];
        if (buf.length >= CHUNK_CHARS) {
          yield buf;
          buf = '';
        }
      } else {
        line.push(String(lit));
      }
    }
    if (buf.length > 0) yield buf;
  }

  /** The whole DIMACS text. For tests and small formulas; solvers read `dimacsChunks()`. */
  toDimacs(): string {
    return Array.from(this.dimacsChunks()).join('');
  }

  private ensure(extra: number): void {
    if (this.length + extra <= this.lits.length) return;
    let cap = this.lits.length * 2;
    while (cap < this.length + extra) cap *= 2;
    const grown = new Int32Array(cap);
    grown.set(this.lits.subarray(0, this.length));
    this.lits = grown;
  }
}
