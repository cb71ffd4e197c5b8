import type { FarmOverview } from '@satfarm/queue';

/** Queue depth, solvers at work, workers and jobs in flight, in one line. */
export function FarmGlanceView({ farm }: { farm?: FarmOverview }) {
  const figure = (label: string, value: number | undefined, testId: string, title?: string) => (
    <div class="figure" data-testid={testId} title={title}>
      <span class="value">{value ?? '–'}</span>
      <span class="label">{label}</span>
    </div>
  );
  return (
    <div class="glance" data-testid="farm-glance">
      {figure('queue depth', farm?.queueDepth, 'queue-depth', 'horizons waiting for a solver slot')}
      {figure('solving', farm?.activeSolvers, 'active-solvers', 'horizons being solved now')}
      {figure(
        farm?.workers.length === 1 ? 'worker' : 'workers',
        farm?.workers.length,
        'workers',
        farm?.workers.map((w) => `${w.name} (${w.addr})`).join('\n'),
      )}
      {figure('jobs queued', farm?.jobs.queued, 'jobs-queued')}
      {figure('jobs running', farm?.jobs.running, 'jobs-running')}
    </div>
  );
}
