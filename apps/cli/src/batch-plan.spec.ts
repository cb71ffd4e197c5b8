import { describe, expect, it } from 'vitest';

import type { JobRequest } from '@satfarm/queue';

import { batchKey, canonicalJson, partsToAppend } from './batch-plan.js';

describe(batchKey.name, () => {
  const requests: JobRequest[] = [
    { game: 'cube', instance: { size: 2, scramble: 'R U' }, options: { priority: 1, timeoutSec: 9 } },
    { game: 'cnf', instance: 'p cnf 1 1\n1 0\n' },
  ];

  it('is a SHA-256 in hex that does not depend on the order of keys', () => {
    const reordered: JobRequest[] = [
      { options: { timeoutSec: 9, priority: 1 }, instance: { scramble: 'R U', size: 2 }, game: 'cube' },
      { instance: 'p cnf 1 1\n1 0\n', game: 'cnf' },
    ];
    expect(batchKey(requests)).toMatch(/^[0-9a-f]{64}$/);
    expect(batchKey(reordered)).toBe(batchKey(requests));
    expect(canonicalJson(reordered)).toBe(canonicalJson(requests));
  });

  it('changes with the jobs, their order and their options', () => {
    const key = batchKey(requests);
    expect(batchKey([...requests].reverse())).not.toBe(key);
    expect(batchKey([requests[0]!])).not.toBe(key);
    expect(batchKey([{ ...requests[0]!, options: { priority: 2, timeoutSec: 9 } }, requests[1]!])).not.toBe(
      key,
    );
  });
});

describe(partsToAppend.name, () => {
  it('splits a batch into parts of at most 1000 jobs', () => {
    expect(partsToAppend(2500, 0)).toEqual([
      { offset: 0, end: 1000 },
      { offset: 1000, end: 2000 },
      { offset: 2000, end: 2500 },
    ]);
    expect(partsToAppend(10_000, 0)).toHaveLength(10);
  });

  it('resumes from the size the farm holds, wherever it stopped', () => {
    expect(partsToAppend(2500, 1000)).toEqual([
      { offset: 1000, end: 2000 },
      { offset: 2000, end: 2500 },
    ]);
    expect(partsToAppend(2500, 1400)).toEqual([
      { offset: 1400, end: 2400 },
      { offset: 2400, end: 2500 },
    ]);
    expect(partsToAppend(2500, 2500)).toEqual([]);
  });
});
