import { existsSync } from 'node:fs';

/** Per-run resource limits of a solver process. */
export interface ResourceLimits {
  cpuSeconds?: number;
  memoryMiB?: number;
  /**
   * The largest file the process may write, bytes (RLIMIT_FSIZE): a certified run's proof cap.
   * Writing past it ends the process with SIGXFSZ (docs/solvers.md#certified-answers).
   */
  fileBytes?: number;
}

/** The command that starts a solver: the binary itself, or `prlimit` wrapping it. */
export interface SolverCommand {
  command: string;
  args: string[];
}

/**
 * Limits are applied by util-linux `prlimit`, which sets the rlimits and execs the solver, so the
 * solver keeps the spawned pid; one mechanism serves all three solvers, whose own options differ in
 * what they count. CPU: soft N s, hard N + 1; memory: the address space, since Linux enforces no
 * resident-set limit (docs/solvers.md#resource-limits).
 */
export function limitedCommand(
  binary: string,
  args: readonly string[],
  limits: ResourceLimits,
): SolverCommand {
  const { cpuSeconds, memoryMiB, fileBytes } = limits;
  if (cpuSeconds === undefined && memoryMiB === undefined && fileBytes === undefined)
    return { command: binary, args: [...args] };
  const wrapper: string[] = [];
  if (cpuSeconds !== undefined) {
    const soft = Math.ceil(cpuSeconds);
    wrapper.push(`--cpu=${soft}:${soft + 1}`);
  }
  if (memoryMiB !== undefined) wrapper.push(`--as=${Math.ceil(memoryMiB * 1024 * 1024)}`);
  // No core file either: a process ended by SIGXFSZ would otherwise dump one.
  if (fileBytes !== undefined) wrapper.push(`--fsize=${Math.ceil(fileBytes)}`, '--core=0');
  return { command: 'prlimit', args: [...wrapper, '--', binary, ...args] };
}

/** Rejects limits that are not positive finite numbers. */
export function validateLimits(limits: ResourceLimits): void {
  for (const [name, value] of Object.entries(limits)) {
    if (value !== undefined && !(typeof value === 'number' && Number.isFinite(value) && value > 0)) {
      throw new RangeError(`${name} must be a positive number, got ${String(value)}`);
    }
  }
}

const SETPRIV = '/usr/bin/setpriv';
let setprivPresent: boolean | undefined;

/**
 * Makes the kernel kill the solver when the process that spawned it dies, even by SIGKILL, when
 * no handler of ours can run: util-linux `setpriv --pdeathsig KILL` sets the parent-death signal
 * and execs the command (prlimit and the solver keep it across their own exec). Without setpriv
 * the command is returned as it is, and only the reaper's handlers protect against orphans.
 */
export function dieWithParent(
  command: SolverCommand,
  setprivPath: string | undefined = SETPRIV,
): SolverCommand {
  if (setprivPath === undefined) return command;
  setprivPresent ??= existsSync(setprivPath);
  if (!setprivPresent) return command;
  return { command: setprivPath, args: ['--pdeathsig', 'KILL', '--', command.command, ...command.args] };
}
