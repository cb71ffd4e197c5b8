import type { CnfFormula } from './cnf-formula.js';
import type { Lit, VariablePool } from './variable-pool.js';

/** A satisfying assignment as a solver reports it: the set of true variables. */
export class Model {
  private readonly values: Uint8Array;

  /** `literals` as in a solver's `v` lines (positive = true); unmentioned variables are false. */
  constructor(
    readonly numVars: number,
    literals: Iterable<Lit>,
  ) {
    this.values = new Uint8Array(numVars + 1);
    for (const lit of literals) {
      if (lit > 0 && lit <= numVars) this.values[lit] = 1;
    }
  }

  /** Whether literal `lit` is true. */
  value(lit: Lit): boolean {
    const v = this.values[Math.abs(lit)] === 1;
    return lit > 0 ? v : !v;
  }

  /** The value of the named variable `name(indices)`; false when the pool never created it. */
  named(pool: VariablePool, name: string, ...indices: (number | string)[]): boolean {
    const v = pool.lookup(name, ...indices);
    return v !== undefined && this.value(v);
  }

  /** DIMACS-style list: `v` or `-v` for every variable 1..numVars. */
  toLiterals(): number[] {
    const out: number[] = [];
    for (let v = 1; v <= this.numVars; v++) out.push(this.values[v] === 1 ? v : -v);
    return out;
  }

  /** The index of the first clause of `formula` this model falsifies, or -1 when it satisfies all. */
  firstFalsifiedClause(formula: CnfFormula): number {
    let index = 0;
    for (const clause of formula.clauses()) {
      let sat = false;
      for (const lit of clause) {
        if (this.value(lit)) {
          sat = true;
          break;
        }
      }
      if (!sat) return index;
      index++;
    }
    return -1;
  }
}
