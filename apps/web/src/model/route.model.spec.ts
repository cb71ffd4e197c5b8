import { describe, expect, it } from 'vitest';

import { parseRoute, type Route, routeHash } from './route.model';

describe(parseRoute.name, () => {
  it('keeps the links the dashboard gave before: a job, and the jobs at #/ or no hash', () => {
    expect(parseRoute('#/jobs/4f2c-1')).toEqual({ view: 'jobs', jobId: '4f2c-1' });
    expect(parseRoute('#/')).toEqual({ view: 'jobs' });
    expect(parseRoute('')).toEqual({ view: 'jobs' });
    expect(parseRoute('#/jobs')).toEqual({ view: 'jobs' });
    expect(parseRoute('#/nowhere')).toEqual({ view: 'jobs' });
  });

  it('reads the batches, one batch and the workers, and writes them back the same', () => {
    const routes: Route[] = [
      { view: 'batches' },
      { view: 'batches', batchId: 'b-1' },
      { view: 'workers' },
      { view: 'jobs', jobId: 'j/2' },
      { view: 'jobs' },
    ];
    for (const route of routes) expect(parseRoute(routeHash(route))).toEqual(route);
    expect(parseRoute('#/batches/')).toEqual({ view: 'batches' });
  });
});
