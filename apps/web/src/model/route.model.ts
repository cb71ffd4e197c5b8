/** What the page shows, from its hash. */
export type Route =
  { view: 'jobs'; jobId?: string } | { view: 'batches'; batchId?: string } | { view: 'workers' };

/**
 * The route of a hash: `#/jobs/<id>` a job (the link the dashboard has always given), `#/batches`
 * and `#/batches/<id>`, `#/workers`; anything else (`#/`, `#/jobs`, none) the jobs.
 */
export function parseRoute(hash: string): Route {
  const [view, id] = hash.replace(/^#\/?/, '').split(/\/(.*)/s, 2) as [string, string | undefined];
  const given = id === undefined || id === '' ? undefined : id;
  if (view === 'batches') return given === undefined ? { view } : { view, batchId: given };
  if (view === 'workers') return { view };
  if (view === 'jobs' && given !== undefined) return { view, jobId: given };
  return { view: 'jobs' };
}

/** The hash of a route (the inverse of {@link parseRoute}). */
export function routeHash(route: Route): string {
  if (route.view === 'workers') return '#/workers';
  if (route.view === 'batches')
    return route.batchId === undefined ? '#/batches' : `#/batches/${route.batchId}`;
  return route.jobId === undefined ? '#/' : `#/jobs/${route.jobId}`;
}
