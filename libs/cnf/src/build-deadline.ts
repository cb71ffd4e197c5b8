/**
 * A formula is built synchronously, so neither a timer nor an abort signal can stop a large one
 * halfway: the event loop only runs again when the encoder returns. A caller with a deadline runs
 * the encoder inside `buildBefore`, and the formula checks the clock as it grows (every few
 * thousand clauses), throwing `FormulaBuildStopped` once the deadline has passed. The deadline is
 * held for the synchronous call only, so no other build sees it.
 */
export class FormulaBuildStopped extends Error {
  constructor() {
    super('the formula was still being built when its deadline passed');
    this.name = 'FormulaBuildStopped';
  }
}

let activeDeadline: number | undefined;

/**
 * Runs `build` with a deadline (a `performance.now()` time; undefined: none) that formulas built
 * meanwhile enforce; an enclosing deadline that is earlier still holds.
 */
export function buildBefore<T>(deadline: number | undefined, build: () => T): T {
  const outer = activeDeadline;
  activeDeadline = deadline === undefined ? outer : Math.min(deadline, outer ?? Number.POSITIVE_INFINITY);
  try {
    return build();
  } finally {
    activeDeadline = outer;
  }
}

/** Throws `FormulaBuildStopped` when a build deadline is set and has passed. */
export function checkBuildDeadline(): void {
  if (activeDeadline !== undefined && performance.now() > activeDeadline) throw new FormulaBuildStopped();
}
