import { describe, expect, it } from 'vitest';

import { buildWithin, FormulaBuildStopped } from './build-limits.js';
import { CnfFormula } from './cnf-formula.js';

/** Adds `count` unit clauses over one variable to a new formula. */
function build(count: number): CnfFormula {
  const f = new CnfFormula();
  const x = f.pool.fresh();
  for (let i = 0; i < count; i++) f.add([x]);
  return f;
}

describe(buildWithin.name, () => {
  it('stops a formula growing past its deadline, within a few thousand clauses', () => {
    let formula: CnfFormula | undefined;
    expect(() =>
      buildWithin({ deadline: performance.now() - 1 }, () => {
        formula = new CnfFormula();
        const x = formula.pool.fresh();
        for (let i = 0; i < 1_000_000; i++) formula.add([x]);
      }),
    ).toThrow(FormulaBuildStopped);
    // The very first clause looks at the clock: nothing of the million was added.
    expect(formula?.numClauses).toBe(0);
  });

  it('lets a build end before its deadline, and no deadline outlives its call', () => {
    expect(buildWithin({ deadline: performance.now() + 60_000 }, () => build(10_000)).numClauses).toBe(
      10_000,
    );
    expect(() => buildWithin({ deadline: performance.now() - 1 }, () => 'no formula')).not.toThrow();
    // After a stopped build, formulas built outside any deadline are not stopped.
    expect(() => buildWithin({ deadline: performance.now() - 1 }, () => build(5_000))).toThrow(
      FormulaBuildStopped,
    );
    expect(build(10_000).numClauses).toBe(10_000);
  });

  it('keeps an earlier enclosing deadline inside a later one', () => {
    const past = performance.now() - 1;
    expect(() =>
      buildWithin({ deadline: past }, () =>
        buildWithin({ deadline: performance.now() + 60_000 }, () => build(5_000)),
      ),
    ).toThrow(FormulaBuildStopped);
    expect(buildWithin({}, () => build(5_000)).numClauses).toBe(5_000);
  });

  it('stops a build once its stop test says so, within a few thousand clauses, and only that build', () => {
    let stopAt = Number.POSITIVE_INFINITY;
    let formula: CnfFormula | undefined;
    const stopped = (() => {
      try {
        buildWithin({ stop: () => formula !== undefined && formula.numClauses >= stopAt }, () => {
          formula = new CnfFormula();
          const x = formula.pool.fresh();
          for (let i = 0; i < 1_000_000; i++) {
            if (i === 20_000) stopAt = i;
            formula.add([x]);
          }
        });
      } catch (err) {
        return err;
      }
      return undefined;
    })();
    expect(stopped).toBeInstanceOf(FormulaBuildStopped);
    expect((stopped as FormulaBuildStopped).reason).toBe('stop');
    // Stopped soon after the test turned true: 20,000 clauses, then fewer than 5,000 more.
    expect(formula!.numClauses).toBeGreaterThanOrEqual(20_000);
    expect(formula!.numClauses).toBeLessThan(25_000);
    expect(build(10_000).numClauses).toBe(10_000);
  });

  it('keeps an enclosing stop test inside a build with its own', () => {
    expect(() =>
      buildWithin({ stop: () => true }, () => buildWithin({ stop: () => false }, () => build(5_000))),
    ).toThrow(FormulaBuildStopped);
    const late = (() => {
      try {
        buildWithin({ deadline: performance.now() - 1, stop: () => true }, () => build(5_000));
      } catch (err) {
        return err as FormulaBuildStopped;
      }
      return undefined;
    })();
    // The deadline is named first when both hold.
    expect(late?.reason).toBe('deadline');
  });

  it('stops a formula once its clauses pass the memory limit, within a few thousand clauses', () => {
    let formula: CnfFormula | undefined;
    const stopped = (() => {
      try {
        // 1 MiB: 131,072 two-literal clauses (8 bytes each: the literal and the clause's end).
        buildWithin({ maxFormulaBytes: 2 ** 20 }, () => {
          formula = new CnfFormula();
          const x = formula.pool.fresh();
          for (let i = 0; i < 1_000_000; i++) formula.add([x]);
        });
      } catch (err) {
        return err as FormulaBuildStopped;
      }
      return undefined;
    })();
    expect(stopped?.reason).toBe('size');
    expect(stopped?.message).toMatch(/grew past 1 MiB/);
    expect(formula!.numClauses).toBeGreaterThan(131_072);
    expect(formula!.numClauses).toBeLessThanOrEqual(131_072 + 4_096);
    // Under the limit, the same build ends; the smaller of two nested limits holds.
    expect(buildWithin({ maxFormulaBytes: 2 ** 20 }, () => build(100_000)).numClauses).toBe(100_000);
    expect(() =>
      buildWithin({ maxFormulaBytes: 2 ** 19 }, () =>
        buildWithin({ maxFormulaBytes: 2 ** 30 }, () => build(100_000)),
      ),
    ).toThrow(FormulaBuildStopped);
    expect(build(200_000).numClauses).toBe(200_000);
  });
});
