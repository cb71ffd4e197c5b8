import type { z } from 'zod';

/** One field at fault in a payload and why. */
export interface FieldIssue {
  field: string;
  reason: string;
}

/**
 * A request body, job payload or message that does not match its schema: names the fields at
 * fault (`options.maxHorizon`, `jobs[3].game`) and the reasons. The API answers it with 400.
 */
export class PayloadError extends Error {
  constructor(readonly issues: FieldIssue[]) {
    super(issues.map((i) => `${i.field}: ${i.reason}`).join('; '));
    this.name = 'PayloadError';
  }

  /** The first field at fault. */
  get field(): string {
    return this.issues[0]?.field ?? '';
  }
}

/** A dotted field path (`jobs[3].options.maxHorizon`) under `root`. */
export function fieldPath(path: readonly PropertyKey[], root = ''): string {
  let out = root;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    // A key that does not read as a name (empty, spaces, control characters) is quoted.
    else if (!/^[A-Za-z_$][\w$-]*$/.test(String(key))) out += `[${JSON.stringify(String(key))}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

/** Parses `value` with `schema`, or throws `PayloadError` naming every field at fault under `root`. */
export function parsePayload<S extends z.ZodType>(schema: S, value: unknown, root = ''): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw new PayloadError(
    parsed.error.issues.map((issue) => {
      // An unknown key is named itself, not its parent object.
      const path = issue.code === 'unrecognized_keys' ? [...issue.path, issue.keys[0] ?? ''] : issue.path;
      const reason = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
      return { field: fieldPath(path, root), reason };
    }),
  );
}
