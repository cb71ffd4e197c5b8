import { describe, expect, it } from 'vitest';

import { CountingSink } from '../counting-sink.js';
import { sequentialAtMostK, sequentialCounter } from './sequential-counter.encoding.js';

describe(sequentialAtMostK.name, () => {
  it('uses (n-1)k - k(k-1)/2 auxiliaries and 2nk + n - k^2 - 3k clauses, as its header states', () => {
    for (let n = 2; n <= 40; n += 3) {
      for (let k = 1; k < n; k += 2) {
        const sut = new CountingSink();
        sequentialAtMostK(sut, sut.pool.freshBlock(n), k);
        expect(sut.stats.vars - n).toBe((n - 1) * k - (k * (k - 1)) / 2);
        expect(sut.stats.clauses).toBe(2 * n * k + n - k * k - 3 * k);
      }
    }
  });

  it('adds nothing when k is at least the number of literals', () => {
    const sut = new CountingSink();
    sequentialAtMostK(sut, sut.pool.freshBlock(4), 4);
    expect(sut.stats.clauses).toBe(0);
  });

  it('rejects k < 1 when the constraint is not trivial', () => {
    const sut = new CountingSink();
    expect(() => sequentialAtMostK(sut, sut.pool.freshBlock(4), 0)).toThrow(RangeError);
  });
});

describe(sequentialCounter.name, () => {
  it('uses V = nw - w(w-1)/2 variables, 2V - w upper and 2V - n lower clauses, as its header states', () => {
    for (let n = 1; n <= 30; n += 4) {
      for (let w = 1; w <= n; w += 3) {
        const size = (bounds: 'upper' | 'lower' | 'both'): { vars: number; clauses: number } => {
          const sut = new CountingSink();
          sequentialCounter(sut, sut.pool.freshBlock(n), { bounds, limit: w });
          return { vars: sut.stats.vars - n, clauses: sut.stats.clauses };
        };
        const v = n * w - (w * (w - 1)) / 2;
        expect(size('upper')).toEqual({ vars: v, clauses: 2 * v - w });
        expect(size('lower')).toEqual({ vars: v, clauses: 2 * v - n });
        expect(size('both')).toEqual({ vars: v, clauses: 4 * v - w - n });
      }
    }
  });
});
