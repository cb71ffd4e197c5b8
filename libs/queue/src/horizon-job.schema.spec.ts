import { describe, expect, it } from 'vitest';

import { horizonJobId, horizonJobIdOf, parseHorizonJobId } from './horizon-job.schema.js';

describe(horizonJobId.name, () => {
  const job = '5d3c0c1e-9f1b-4bde-8a47-0e6f1d2f3a4b';

  it('round-trips through parseHorizonJobId', () => {
    const id = horizonJobId(job, 17);
    expect(id).toBe(`${job}.t17`);
    expect(parseHorizonJobId(id)).toEqual({ jobId: job, t: 17, run: 1 });
    expect(parseHorizonJobId('not-a-horizon')).toBeUndefined();
  });

  it('gives a later run of a horizon its own id, so that queueing it again is not a no-op', () => {
    expect(horizonJobId(job, 17, 1)).toBe(horizonJobId(job, 17));
    const again = horizonJobId(job, 17, 3);
    expect(again).not.toBe(horizonJobId(job, 17));
    expect(parseHorizonJobId(again)).toEqual({ jobId: job, t: 17, run: 3 });
  });

  it("names a split horizon's cubes by index, apart from the horizon's own run and its siblings", () => {
    const cube = horizonJobId(job, 9, undefined, undefined, 4);
    expect(cube).toBe(`${job}.t9.c4`);
    expect(parseHorizonJobId(cube)).toEqual({ jobId: job, t: 9, run: 1, cube: 4 });
    const later = horizonJobId(job, 9, 2, undefined, 11);
    expect(later).toBe(`${job}.t9.r2.c11`);
    expect(parseHorizonJobId(later)).toEqual({ jobId: job, t: 9, run: 2, cube: 11 });
    expect(parseHorizonJobId(`${job}.t9.s1`)).toEqual({ jobId: job, t: 9, run: 1, sibling: 1 });
    expect(horizonJobIdOf({ jobId: job, t: 9, cube: { index: 4, t: 8, lowerBound: 3, instance: {} } })).toBe(
      cube,
    );
  });
});
