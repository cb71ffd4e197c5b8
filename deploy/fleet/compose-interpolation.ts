import { FleetInputError } from './fleet-errors.js';

/** The variables of a process environment that interpolation reads. */
export type Variables = Readonly<Record<string, string | undefined>>;

// $$, $NAME, ${NAME}, ${NAME:-default}, ${NAME-default}, ${NAME:?error}, ${NAME?error},
// ${NAME:+alternative}, ${NAME+alternative}: the Compose specification's forms.
const reference =
  /\$(?:(\$)|([A-Za-z_][A-Za-z0-9_]*)|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?+])((?:[^{}]|\{[^{}]*\})*))?\})/g;

/**
 * Interpolates one string of a Compose file as `docker compose` does. An empty default stands
 * (`${X:-}` is "" when X is unset or empty), and a required variable that is missing raises an
 * error naming it.
 */
export function interpolate(text: string, variables: Variables, where = 'compose file'): string {
  return text.replace(
    reference,
    (
      whole: string,
      dollar: string | undefined,
      bare: string | undefined,
      braced: string | undefined,
      colon: string | undefined,
      operator: string | undefined,
      operand: string | undefined,
    ) => {
      if (dollar !== undefined) return '$';
      const name = (bare ?? braced)!;
      const value = variables[name];
      if (operator === undefined) return value ?? '';
      // With a colon an empty value counts as unset.
      const unset = value === undefined || (colon === ':' && value === '');
      const nested = interpolate(operand ?? '', variables, where);
      switch (operator) {
        case '-':
          return unset ? nested : value;
        case '+':
          return unset ? '' : nested;
        default:
          if (unset)
            throw new FleetInputError(
              name,
              `${nested === '' ? 'required' : nested} (${where} refers to it as ${whole})`,
            );
          return value;
      }
    },
  );
}

/** Interpolates every string value of a parsed Compose document (keys are left as they are). */
export function interpolateDocument(node: unknown, variables: Variables, where?: string): unknown {
  if (typeof node === 'string') return interpolate(node, variables, where);
  if (Array.isArray(node)) return node.map((item) => interpolateDocument(item, variables, where));
  if (node !== null && typeof node === 'object')
    return Object.fromEntries(
      Object.entries(node).map(([key, value]) => [key, interpolateDocument(value, variables, where)]),
    );
  return node;
}

/** The names of the variables a string refers to (`$$` is not a reference). */
export function referencedVariables(node: unknown): Set<string> {
  const names = new Set<string>();
  const visit = (value: unknown): void => {
    if (typeof value === 'string')
      for (const match of value.matchAll(reference)) {
        const name = match[2] ?? match[3];
        if (name !== undefined) names.add(name);
        if (match[6] !== undefined) visit(match[6]);
      }
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === 'object') Object.values(value).forEach(visit);
  };
  visit(node);
  return names;
}
