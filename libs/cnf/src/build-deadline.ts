/**
 * A formula is built synchronously, so neither a timer nor an abort signal can stop a large one
 * halfway: the event loop only runs again when the encoder returns. A caller with a deadline runs
 * the encoder inside `buildBefore`, and the formula checks the clock as it grows (every few
 * thousand clauses), throwing `FormulaBuildStopped` once the deadline has passed. The deadline is
 * held for the synchronous call only, so no other build sees it. A caller may also give a `stop`
 * test, checked as often: something outside the event loop (another thread) can then stop a build
 * that no message could reach, such as a horizon cancelled while its formula is built.
 */
export class FormulaBuildStopped extends Error {
  constructor(
    /** `deadline`: the deadline passed; `stop`: the caller's stop test said so. */
    readonly reason: 'deadline' | 'stop',
  ) {
    super(
      reason === 'deadline'
        ? 'the formula was still being built when its deadline passed'
        : 'the formula build was stopped',
    );
    this.name = 'FormulaBuildStopped';
  }
}

let activeDeadline: number | undefined;
let activeStop: (() => boolean) | undefined;

/**
 * Runs `build` with a deadline (a `performance.now()` time; undefined: none) and a stop test
 * (undefined: none) that formulas built meanwhile enforce; an enclosing deadline that is earlier,
 * and an enclosing stop test, still hold.
 */
export function buildBefore<T>(deadline: number | undefined, build: () => T, stop?: () => boolean): T {
  const outer = activeDeadline;
  const outerStop = activeStop;
  activeDeadline = deadline === undefined ? outer : Math.min(deadline, outer ?? Number.POSITIVE_INFINITY);
  if (stop !== undefined) activeStop = outerStop === undefined ? stop : () => outerStop() || stop();
  try {
    return build();
  } finally {
    activeDeadline = outer;
    activeStop = outerStop;
  }
}

/** Throws `FormulaBuildStopped` when a build deadline is set and has passed, or a stop test says so. */
export function checkBuildDeadline(): void {
  if (activeDeadline !== undefined && performance.now() > activeDeadline)
    throw new FormulaBuildStopped('deadline');
  if (activeStop?.() === true) throw new FormulaBuildStopped('stop');
}
