/** A DIMACS literal: a non-zero integer, negative for a negated variable. */
export type Lit = number;

type Index = number | string;

/**
 * Hands out DIMACS variables and remembers the name of each named one, so a model is decoded
 * by name (`pool.named('pos', x, y, t)`) rather than by index arithmetic.
 */
export class VariablePool {
  private next = 1;
  private readonly byKey = new Map<string, number>();
  private readonly keyOf: (string | undefined)[] = [undefined];

  /** The variable called `name(indices)`, created on first use. */
  named(name: string, ...indices: Index[]): number {
    const key = VariablePool.key(name, indices);
    let v = this.byKey.get(key);
    if (v === undefined) {
      v = this.next++;
      this.byKey.set(key, v);
      this.keyOf[v] = key;
    }
    return v;
  }

  /** The variable called `name(indices)` if it was ever created. */
  lookup(name: string, ...indices: Index[]): number | undefined {
    return this.byKey.get(VariablePool.key(name, indices));
  }

  /** A fresh auxiliary variable with no name. */
  fresh(): number {
    const v = this.next++;
    this.keyOf[v] = undefined;
    return v;
  }

  /** `count` fresh auxiliary variables, consecutive. */
  freshBlock(count: number): number[] {
    const out: number[] = [];
    for (let i = 0; i < count; i++) out.push(this.fresh());
    return out;
  }

  /** Reserves variables 1..n as unnamed inputs (e.g. the variables of a parsed DIMACS file). */
  reserve(n: number): void {
    // No per-variable work: a DIMACS header may declare millions of variables.
    if (n >= this.next) this.next = n + 1;
  }

  /** The name of variable `v`, e.g. `pos(3,4,7)`, or undefined for an auxiliary variable. */
  nameOf(v: number): string | undefined {
    return this.keyOf[Math.abs(v)];
  }

  /** Number of variables handed out so far (the DIMACS header's variable count). */
  get size(): number {
    return this.next - 1;
  }

  private static key(name: string, indices: readonly Index[]): string {
    return indices.length === 0 ? name : `${name}(${indices.join(',')})`;
  }
}
