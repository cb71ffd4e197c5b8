/** PromQL words that look like metric names but are not. */
const KEYWORDS = new Set([
  'by',
  'without',
  'on',
  'ignoring',
  'group_left',
  'group_right',
  'bool',
  'offset',
  'and',
  'or',
  'unless',
  'inf',
  'nan',
]);

/**
 * The series selectors of a PromQL expression: each metric name it reads and its label matchers
 * (`{queue="x", state=~"a|b"}` as `{queue: '="x"', state: '=~"a|b"'}`). Function names, grouping
 * clauses and keywords are not metrics. Enough for the queries this repository writes, not a
 * PromQL parser.
 */
export function promSelectors(query: string): Array<{ metric: string; labels: Record<string, string> }> {
  const withoutGrouping = query
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ');
  const found: Array<{ metric: string; labels: Record<string, string> }> = [];
  for (const match of withoutGrouping.matchAll(/([a-zA-Z_:][a-zA-Z0-9_:]*)\s*(\{([^}]*)\})?(\s*\()?/g)) {
    const [, metric, , matchers, call] = match;
    if (call !== undefined || KEYWORDS.has(metric!)) continue;
    const labels: Record<string, string> = {};
    for (const m of (matchers ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*("[^"]*")/g))
      labels[m[1]!] = `${m[2]}${m[3]}`;
    found.push({ metric: metric!, labels });
  }
  return found;
}
