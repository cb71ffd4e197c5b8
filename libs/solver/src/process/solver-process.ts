import { once } from 'node:events';
import { createInterface } from 'node:readline';

import { SolverError } from '../solver.error.js';
import { writeDimacs } from './dimacs-stdin.js';
import { registerLiveSolver } from './live-solvers.registry.js';
import { launcherFor, type ProcessLauncher } from './process-launcher.js';
import { signalGroup } from './process-group.js';
import type { ProcessUsage } from './spawn-host.protocol.js';

/** Why a run was ended from outside the solver. */
export type StopCause = 'timeout' | 'cancelled';

/** One solver process to run. */
export interface SolverProcessSpec {
  /** Solver label for error messages. */
  solver: string;
  command: string;
  args: readonly string[];
  /** Text for standard input (DIMACS chunks); none closes stdin at once. */
  input?: Iterable<string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** Time between SIGTERM and SIGKILL on a stop; 0 kills at once. */
  termGraceMs?: number;
  /** Called for each line of standard output; a throw stops the run and rejects it. */
  onStdoutLine: (line: string) => void;
  /** How the process is started (default: the shared spawn host). */
  launcher?: ProcessLauncher;
}

/** How a solver process ended. */
export interface SolverProcessResult {
  exitCode: number | null;
  /** The signal that ended the process, when one did. */
  signal: NodeJS.Signals | null;
  /** Set when the run was stopped by its timeout or a cancel, rather than ending on its own. */
  stoppedBy: StopCause | undefined;
  wallMs: number;
  /** The last few KiB of standard error. */
  stderr: string;
  /** Peak memory and CPU time of the process, where its launcher knows them (the native host). */
  usage?: ProcessUsage;
}

const STDERR_TAIL_CHARS = 8192;

/** Input up to this size goes with the start of the process, in one message to the spawn host. */
const BUNDLED_INPUT_CHARS = 1 << 16;

/**
 * The input whole, when it ends within `limit` characters; otherwise the same chunks, to be
 * streamed (the ones already taken first, then the rest of the same iterator).
 */
function bundleSmallInput(
  chunks: Iterable<string>,
  limit: number,
): { whole: string } | { stream: Iterable<string> } {
  const iterator = chunks[Symbol.iterator]();
  const taken: string[] = [];
  let size = 0;
  for (;;) {
    const next = iterator.next();
    if (next.done === true) return { whole: taken.join('') };
    taken.push(next.value);
    size += next.value.length;
    if (size > limit) break;
  }
  function* rest(): Generator<string> {
    yield* taken;
    for (let next = iterator.next(); next.done !== true; next = iterator.next()) yield next.value;
  }
  return { stream: rest() };
}

/** The longest delay `setTimeout` takes (2^31 - 1 ms); above it, it fires at once, so longer limits are cut to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * Runs one solver process in its own process group and resolves only once the process has been
 * reaped and its output pipes have closed, so no solver of this run is alive afterwards. A
 * timeout, an abort or `killAllSolvers()` kills the whole group (SIGKILL to -pid, after an
 * optional SIGTERM grace period). Rejects with `SolverError` when the binary cannot be started.
 */
export async function runSolverProcess(spec: SolverProcessSpec): Promise<SolverProcessResult> {
  const started = performance.now();
  const input = bundleSmallInput(spec.input ?? [], BUNDLED_INPUT_CHARS);
  let child;
  try {
    const whole = 'whole' in input ? input.whole : undefined;
    child = await (spec.launcher ?? launcherFor('host')).launch(spec.command, spec.args, whole);
  } catch (err) {
    throw startError(spec, err);
  }
  const { pid, closed } = child;

  let stoppedBy: StopCause | undefined;
  let failure: Error | undefined;
  let exited = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const kill = (): void => {
    if (!exited) signalGroup(pid, 'SIGKILL');
  };
  const stop = (cause: StopCause): void => {
    if (stoppedBy !== undefined || exited) return;
    stoppedBy = cause;
    const grace = spec.termGraceMs ?? 0;
    if (grace <= 0) {
      kill();
    } else {
      signalGroup(pid, 'SIGTERM');
      graceTimer = setTimeout(kill, grace);
    }
  };
  const fail = (err: unknown): void => {
    failure ??= err instanceof Error ? err : new Error('a non-Error value was thrown', { cause: err });
    kill();
  };

  const unregister = registerLiveSolver({
    kill: () => {
      stoppedBy ??= 'cancelled';
      kill();
    },
  });
  void child.exited.then(() => {
    // The leader is gone; anything it left in its group (a forked helper) goes with it.
    signalGroup(pid, 'SIGKILL');
    exited = true;
    unregister();
  });
  const onAbort = (): void => stop('cancelled');
  spec.signal?.addEventListener('abort', onAbort, { once: true });
  if (spec.signal?.aborted) onAbort();
  const timer =
    spec.timeoutMs !== undefined && spec.timeoutMs > 0
      ? setTimeout(() => stop('timeout'), Math.min(spec.timeoutMs, MAX_TIMER_MS))
      : undefined;

  let stderr = '';
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => {
    stderr = (stderr + text).slice(-STDERR_TAIL_CHARS);
  });
  const lines = createInterface({ input: child.stdout, crlfDelay: Infinity });
  const linesDone = once(lines, 'close');
  lines.on('line', (line) => {
    if (failure !== undefined) return;
    try {
      spec.onStdoutLine(line);
    } catch (err) {
      fail(err);
    }
  });
  const writing = 'stream' in input ? writeDimacs(child.stdin, input.stream).catch(fail) : Promise.resolve();

  try {
    const [[exitCode, signal]] = await Promise.all([closed, linesDone, writing]);
    if (failure !== undefined) throw failure;
    const wallMs = performance.now() - started;
    const { usage } = child;
    return { exitCode, signal, stoppedBy, wallMs, stderr, ...(usage === undefined ? {} : { usage }) };
  } finally {
    clearTimeout(timer);
    clearTimeout(graceTimer);
    spec.signal?.removeEventListener('abort', onAbort);
    unregister();
  }
}

function startError(spec: SolverProcessSpec, err: unknown): SolverError {
  const code = (err as NodeJS.ErrnoException).code;
  const detail = err instanceof Error ? err.message : String(err);
  if (code === 'ENOENT') {
    const hint =
      spec.command === 'prlimit'
        ? 'prlimit (util-linux) is needed for cpuSeconds/memoryMiB limits'
        : `install ${spec.solver} or pass its path as the 'binary' option`;
    return new SolverError(
      'missing-binary',
      spec.solver,
      `cannot start '${spec.command}': not found (${hint})`,
    );
  }
  if (code === 'EACCES') {
    return new SolverError('missing-binary', spec.solver, `cannot start '${spec.command}': not executable`);
  }
  return new SolverError('crashed', spec.solver, `cannot start '${spec.command}': ${detail}`);
}
