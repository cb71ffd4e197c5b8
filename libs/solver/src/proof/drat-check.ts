import { launcherFor, type ProcessLauncher } from '../process/process-launcher.js';
import { runSolverProcess } from '../process/solver-process.js';

/** The checker's binary when none is named. */
export const DRAT_CHECKER = 'drat-trim';

/**
 * drat-trim's own time limit (`-t`, seconds; its default is 40000): far beyond any run's, so that
 * the caller's timeout and signal, which kill the checker's process group, are what stop it.
 */
const CHECKER_OWN_LIMIT_SEC = 30 * 24 * 3600;

/** One proof to check against its formula. */
export interface DratCheckSpec {
  formulaFile: string;
  proofFile: string;
  /** The checker's binary (default `drat-trim`). */
  checker?: string;
  signal?: AbortSignal;
  timeoutMs?: number;
  launcher?: ProcessLauncher;
}

/**
 * A check's verdict: `verified` (drat-trim printed `s VERIFIED`), `rejected` (it printed
 * `s NOT VERIFIED`), `error` (a signal ended it, or it printed neither line), or stopped from
 * outside (`timeout`, `cancelled`).
 */
export interface DratCheck {
  verdict: 'verified' | 'rejected' | 'error' | 'timeout' | 'cancelled';
  ms: number;
  /** drat-trim's last lines, for a verdict other than `verified`. */
  detail?: string;
}

/**
 * Checks a DRAT proof (text or binary, as drat-trim detects it) of the formula's
 * unsatisfiability with drat-trim, run like a solver: in its own process group through the
 * launcher, so a cancel, a timeout or `killAllSolvers()` kills it, and reaped before this settles.
 * Its `s` line is the verdict, not its exit code, which says neither (drat-trim 2024-04-28 exits
 * 0 after some `s NOT VERIFIED` and 1 after the `s VERIFIED` of a formula with an empty clause;
 * docs/solvers.md#certified-answers). Rejects with `SolverError` (`missing-binary`) when
 * drat-trim is not installed.
 */
export async function checkDratProof(spec: DratCheckSpec): Promise<DratCheck> {
  let verified = false;
  let rejected = false;
  const tail: string[] = [];
  const run = await runSolverProcess({
    solver: 'drat-trim',
    command: spec.checker ?? DRAT_CHECKER,
    args: [spec.formulaFile, spec.proofFile, '-t', String(CHECKER_OWN_LIMIT_SEC)],
    signal: spec.signal,
    timeoutMs: spec.timeoutMs,
    launcher: spec.launcher ?? launcherFor('host'),
    onStdoutLine: (line) => {
      const trimmed = line.trim();
      if (trimmed === 's VERIFIED') verified = true;
      else if (trimmed === 's NOT VERIFIED') rejected = true;
      if (trimmed !== '') tail.push(trimmed);
      if (tail.length > 4) tail.shift();
    },
  });
  const ms = Math.round(run.wallMs);
  const detail = [...tail, run.stderr.trim()].filter((l) => l !== '').join(' | ');
  if (run.stoppedBy !== undefined) return { verdict: run.stoppedBy, ms, detail };
  if (rejected) return { verdict: 'rejected', ms, detail };
  if (verified && run.signal === null) return { verdict: 'verified', ms };
  return { verdict: 'error', ms, detail };
}
