/**
 * Sends `signal` to the whole process group led by `pid` (solvers are spawned detached, so each
 * leads its own group and any helper it forks is reached too). A group that is already gone is
 * not an error.
 */
export function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ESRCH') throw err;
  }
}
