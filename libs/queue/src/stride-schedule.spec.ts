import { describe, expect, it } from 'vitest';

import {
  LOOKAHEAD_TARGET_MS,
  MAX_LOOKAHEAD,
  nextLookahead,
  pendingScore,
  planReleases,
  priorityOfScore,
  shareWeight,
  STRIDE,
  strideOf,
  type TenantLine,
} from './stride-schedule.js';

const line = (tenant: string, pass: number, n: number, priority = 0): TenantLine => ({
  tenant,
  pass,
  heads: Array.from({ length: n }, (_, i) => ({ id: `${tenant}.${i}`, priority })),
});

const countBy = (tenants: string[]): Record<string, number> => {
  const counts: Record<string, number> = {};
  for (const t of tenants) counts[t] = (counts[t] ?? 0) + 1;
  return counts;
};

describe(planReleases.name, () => {
  it('alternates between two tenants of equal priority, whatever their backlog', () => {
    const sut = planReleases([line('big', 0, 1000), line('small', 0, 3)], 0, 6);

    expect(sut.picks.map((p) => p.tenant)).toEqual(['big', 'small', 'big', 'small', 'big', 'small']);
  });

  it('gives a tenant that joins late the next release: it starts at the farm pass, below the others', () => {
    const first = planReleases([line('batch', 0, 50)], 0, 10);
    const batchPass = first.passes.get('batch')!;

    const sut = planReleases(
      [line('batch', batchPass, 40), line('late', first.globalPass, 1)],
      first.globalPass,
      2,
    );

    expect(sut.picks.map((p) => p.tenant)).toEqual(['late', 'batch']);
  });

  it('grants no credit for idle time: a tenant joining at the farm pass gets an even share, not a burst', () => {
    const first = planReleases([line('batch', 0, 200)], 0, 100);
    const sut = planReleases(
      [line('batch', first.passes.get('batch')!, 100), line('late', first.globalPass, 100)],
      first.globalPass,
      20,
    );

    expect(countBy(sut.picks.map((p) => p.tenant))).toEqual({ batch: 10, late: 10 });
  });

  it('shares releases by weight: ten priority points more get twice the releases', () => {
    const sut = planReleases([line('low', 0, 100, 0), line('high', 0, 100, 10)], 0, 30);

    expect(countBy(sut.picks.map((p) => p.tenant))).toEqual({ low: 10, high: 20 });
  });

  it('starves no tenant: the lowest priority still gets its weighted share', () => {
    const sut = planReleases([line('low', 0, 100, 0), line('top', 0, 2000, 30)], 0, 900);

    expect(countBy(sut.picks.map((p) => p.tenant))).toEqual({ low: 100, top: 800 });
  });

  it("takes a tenant's horizons in line order and stops when every line is empty", () => {
    const sut = planReleases([line('a', 0, 2), line('b', 5, 1)], 0, 10);

    expect(sut.picks.map((p) => p.id)).toEqual(['a.0', 'b.0', 'a.1']);
    expect(sut.passes).toEqual(
      new Map([
        ['a', 2 * STRIDE],
        ['b', 5 + STRIDE],
      ]),
    );
  });

  it('moves the farm pass to the pass of the last pick, never back', () => {
    expect(planReleases([line('a', 7, 3)], 0, 3).globalPass).toBe(7 + 2 * STRIDE);
    expect(planReleases([], 42, 3).globalPass).toBe(42);
  });

  it('plans alike on every coordinator: ties go by tenant name', () => {
    const sut = planReleases([line('b', 0, 1), line('a', 0, 1)], 0, 2);

    expect(sut.picks.map((p) => p.tenant)).toEqual(['a', 'b']);
  });
});

describe(shareWeight.name, () => {
  it('doubles every ten points and keeps every priority above zero weight', () => {
    expect(shareWeight(0)).toBe(1);
    expect(shareWeight(10) / shareWeight(0)).toBe(2);
    expect(shareWeight(60) / shareWeight(50)).toBeCloseTo(2);
    expect(strideOf(100)).toBeGreaterThan(0);
  });
});

describe(pendingScore.name, () => {
  it('orders by priority first, then by arrival', () => {
    const scores = [pendingScore(0, 1), pendingScore(50, 9), pendingScore(50, 2), pendingScore(100, 7)];

    expect([...scores].sort((a, b) => a - b)).toEqual([scores[3], scores[2], scores[1], scores[0]]);
  });

  it('gives back the priority it was made from', () => {
    for (const priority of [0, 1, 37, 100]) {
      expect(priorityOfScore(pendingScore(priority, 123_456_789))).toBe(priority);
    }
  });
});

describe(nextLookahead.name, () => {
  const busy = { active: 2, releasedBefore: true, releasesPerSec: 1000 };

  it('doubles when the workers emptied the queue while horizons were pending, up to the cap', () => {
    expect(nextLookahead(4, 4, { ...busy, untaken: 0 })).toBe(8);
    expect(nextLookahead(200, 4, { ...busy, untaken: 0, releasesPerSec: 1e6 })).toBe(MAX_LOOKAHEAD);
  });

  it('keeps no more queued than the workers take in the target time', () => {
    const releasesPerSec = 100;
    const ceiling = Math.ceil((releasesPerSec * LOOKAHEAD_TARGET_MS) / 1000);
    expect(nextLookahead(ceiling, 4, { ...busy, untaken: 0, releasesPerSec })).toBe(Math.max(4, ceiling));
    expect(nextLookahead(64, 4, { ...busy, untaken: 10, releasesPerSec: 1 })).toBe(4);
  });

  it('does not grow on an idle farm or one with nothing pending', () => {
    expect(nextLookahead(4, 4, { ...busy, untaken: 0, active: 0 })).toBe(4);
    expect(nextLookahead(4, 4, { ...busy, untaken: 0, releasedBefore: false })).toBe(4);
  });

  it('shrinks by one while half of it is still queued, never under the base', () => {
    expect(nextLookahead(32, 4, { ...busy, untaken: 16 })).toBe(31);
    expect(nextLookahead(4, 4, { ...busy, untaken: 4 })).toBe(4);
    expect(nextLookahead(32, 4, { ...busy, untaken: 3 })).toBe(32);
  });
});
