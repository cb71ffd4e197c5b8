/**
 * The sum of the samples of metric `name` in the Prometheus text `exposition` whose labels include
 * `labels` (0 when there is none): one series when the labels name it, a total when they do not.
 */
export function metricValue(exposition: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  for (const line of exposition.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const matches = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (matches) total += Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return total;
}
