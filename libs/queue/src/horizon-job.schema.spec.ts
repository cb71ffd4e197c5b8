import { describe, expect, it } from 'vitest';

import { horizonJobId, parseHorizonJobId } from './horizon-job.schema.js';

describe(horizonJobId.name, () => {
  it('round-trips through parseHorizonJobId', () => {
    const id = horizonJobId('5d3c0c1e-9f1b-4bde-8a47-0e6f1d2f3a4b', 17);
    expect(parseHorizonJobId(id)).toEqual({ jobId: '5d3c0c1e-9f1b-4bde-8a47-0e6f1d2f3a4b', t: 17 });
    expect(parseHorizonJobId('not-a-horizon')).toBeUndefined();
  });
});
