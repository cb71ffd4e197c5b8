import { describe, expect, it } from 'vitest';

import { horizonJobId, parseHorizonJobId } from './horizon-job.schema.js';

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
});
