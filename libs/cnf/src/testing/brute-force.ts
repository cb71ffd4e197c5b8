import type { CnfFormula } from '../cnf-formula.js';
import type { Lit } from '../variable-pool.js';

/** One assignment of a set of input variables. */
export interface InputAssignment {
  /** The value of a literal over the input variables. */
  value(lit: Lit): boolean;
  /** The assignment as unit literals, e.g. `[1, -2, 3]`. */
  readonly literals: readonly Lit[];
}

/**
 * Whether `formula` has a model extending `assumptions`, decided by unit propagation and
 * branching over the variables left: exact, and fast for the few dozen variables of a unit test.
 */
export function isSatisfiable(formula: CnfFormula, assumptions: readonly Lit[] = []): boolean {
  const clauses = Array.from(formula.clauses(), (c) => Array.from(c));
  const value = new Int8Array(formula.numVars + 1);
  for (const lit of assumptions) {
    const v = Math.abs(lit);
    if (v === 0 || v > formula.numVars)
      throw new RangeError(`assumption ${lit} is not a variable of the formula`);
    const sign = lit > 0 ? 1 : -1;
    if (value[v] === -sign) return false;
    value[v] = sign;
  }
  return search(clauses, value);
}

/** Every assignment of the variables `inputs`, in binary counting order (first variable lowest). */
export function* allAssignments(inputs: readonly number[]): IterableIterator<InputAssignment> {
  for (let mask = 0; mask < 2 ** inputs.length; mask++) {
    const truth = new Map<number, boolean>();
    inputs.forEach((v, i) => truth.set(v, ((mask >> i) & 1) === 1));
    const value = (lit: Lit): boolean => {
      const t = truth.get(Math.abs(lit));
      if (t === undefined) throw new RangeError(`literal ${lit} is not over the input variables`);
      return lit > 0 ? t : !t;
    };
    yield { value, literals: inputs.map((v) => (truth.get(v) ? v : -v)) };
  }
}

/**
 * Checks that `formula` expresses a constraint over the variables `inputs`, with every other
 * variable existentially quantified: for each assignment of the inputs, the formula plus `extra`
 * unit literals is satisfiable exactly when `holds` says so. Returns one line per assignment
 * where it is not (empty: the encoding is exact).
 */
export function constraintMismatches(
  formula: CnfFormula,
  inputs: readonly number[],
  holds: (a: InputAssignment) => boolean,
  extra: readonly Lit[] = [],
): string[] {
  const wrong: string[] = [];
  for (const a of allAssignments(inputs)) {
    const expected = holds(a);
    if (isSatisfiable(formula, [...a.literals, ...extra]) !== expected) {
      wrong.push(`inputs ${a.literals.join(' ')}: expected ${expected ? 'satisfiable' : 'unsatisfiable'}`);
    }
  }
  return wrong;
}

/**
 * Checks that literal `out` is a function of the variables `inputs` in `formula`: for each
 * assignment of the inputs, the formula is satisfiable with `out` equal to `fn` and unsatisfiable
 * with `out` different. Returns one line per assignment where it is not (empty: `out` = `fn`).
 */
export function gateMismatches(
  formula: CnfFormula,
  inputs: readonly number[],
  out: Lit,
  fn: (a: InputAssignment) => boolean,
): string[] {
  const wrong: string[] = [];
  for (const a of allAssignments(inputs)) {
    const expected = fn(a) ? out : -out;
    if (!isSatisfiable(formula, [...a.literals, expected])) {
      wrong.push(`inputs ${a.literals.join(' ')}: output cannot be ${fn(a)}`);
    } else if (isSatisfiable(formula, [...a.literals, -expected])) {
      wrong.push(`inputs ${a.literals.join(' ')}: output can be ${!fn(a)}`);
    }
  }
  return wrong;
}

function search(clauses: readonly (readonly Lit[])[], value: Int8Array): boolean {
  const trail: number[] = [];
  const undo = (): void => {
    for (const v of trail) value[v] = 0;
  };
  let branch = 0;
  for (let changed = true; changed;) {
    changed = false;
    branch = 0;
    for (const clause of clauses) {
      let satisfied = false;
      let open = 0;
      let last = 0;
      for (const lit of clause) {
        const v = value[Math.abs(lit)]! * (lit > 0 ? 1 : -1);
        if (v === 1) {
          satisfied = true;
          break;
        }
        if (v === 0) {
          open++;
          last = lit;
        }
      }
      if (satisfied) continue;
      if (open === 0) {
        undo();
        return false;
      }
      if (open === 1) {
        value[Math.abs(last)] = last > 0 ? 1 : -1;
        trail.push(Math.abs(last));
        changed = true;
      } else if (branch === 0) {
        branch = Math.abs(last);
      }
    }
  }
  if (branch === 0) return true;
  for (const sign of [1, -1]) {
    value[branch] = sign;
    if (search(clauses, value)) return true;
  }
  value[branch] = 0;
  undo();
  return false;
}
