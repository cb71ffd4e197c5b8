/**
 * A formula is built synchronously, so neither a timer nor an abort signal can stop a large one
 * halfway. A caller runs the encoder inside `buildWithin`, and each formula checks the limits (a
 * deadline, a `stop` test another thread can answer, its memory) as it grows, throwing this once
 * one is passed (docs/solvers.md#formula-build-limits).
 */
export class FormulaBuildStopped extends Error {
  constructor(
    /** `deadline`: the deadline passed; `stop`: the caller's stop test said so; `size`: the formula outgrew its memory. */
    readonly reason: 'deadline' | 'stop' | 'size',
    /** For `size`: the limit, bytes. */
    readonly maxFormulaBytes?: number,
  ) {
    super(
      reason === 'deadline'
        ? 'the formula was still being built when its deadline passed'
        : reason === 'stop'
          ? 'the formula build was stopped'
          : `the formula grew past ${mebibytes(maxFormulaBytes ?? 0)} MiB, the most one may take here`,
    );
    this.name = 'FormulaBuildStopped';
  }
}

/** What a build may not pass. */
export interface BuildLimits {
  /** A `performance.now()` time; undefined: none. */
  deadline?: number;
  /** Asked as often as the clock; true stops the build. */
  stop?: () => boolean;
  /** The most bytes one formula's clauses may take (4 a literal, and 4 a clause for its end). */
  maxFormulaBytes?: number;
}

let active: BuildLimits = {};

/**
 * Runs `build` with `limits`, which formulas built meanwhile enforce; enclosing limits still hold
 * (the earlier deadline, both stop tests, the smaller memory).
 */
export function buildWithin<T>(limits: BuildLimits, build: () => T): T {
  const outer = active;
  const outerStop = outer.stop;
  const stop = limits.stop;
  active = {
    deadline: smaller(outer.deadline, limits.deadline),
    stop: outerStop === undefined ? stop : stop === undefined ? outerStop : () => outerStop() || stop(),
    maxFormulaBytes: smaller(outer.maxFormulaBytes, limits.maxFormulaBytes),
  };
  try {
    return build();
  } finally {
    active = outer;
  }
}

/**
 * Throws `FormulaBuildStopped` when a limit of the enclosing `buildWithin` is passed: the deadline
 * (named first when several are), the stop test, or `formulaBytes` (the growing formula's) over
 * the memory. Formulas call it as they grow; an encoder calls it (without bytes) in a long phase
 * that adds no clause, which nothing could stop otherwise.
 */
export function checkBuildLimits(formulaBytes = 0): void {
  if (active.deadline !== undefined && performance.now() > active.deadline)
    throw new FormulaBuildStopped('deadline');
  if (active.stop?.() === true) throw new FormulaBuildStopped('stop');
  if (active.maxFormulaBytes !== undefined && formulaBytes > active.maxFormulaBytes)
    throw new FormulaBuildStopped('size', active.maxFormulaBytes);
}

function smaller(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

function mebibytes(bytes: number): string {
  return (bytes / 2 ** 20).toFixed(bytes >= 2 ** 20 ? 0 : 2);
}
