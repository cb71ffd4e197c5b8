/** A solver process that is running now and can be stopped from outside its own run. */
export interface LiveSolver {
  /** Kills the solver's process group at once (synchronously); its run then ends `cancelled`. */
  kill(): void;
}

const live = new Set<LiveSolver>();

/** Records a running solver; the returned function forgets it once it has exited. */
export function registerLiveSolver(solver: LiveSolver): () => void {
  live.add(solver);
  return () => {
    live.delete(solver);
  };
}

/** Number of solver processes running in this process now. */
export function liveSolverCount(): number {
  return live.size;
}

/**
 * Kills the process group of every running solver of this process, synchronously, and returns
 * how many there were. Each pending `solve()` then resolves `cancelled` once its process is reaped.
 */
export function killAllSolvers(): number {
  const running = [...live];
  for (const solver of running) solver.kill();
  return running.length;
}

/** Which process events make the reaper kill the running solvers. */
export interface SolverReaperOptions {
  /** Signals to watch besides the process's 'exit' event; default SIGINT and SIGTERM. */
  signals?: readonly NodeJS.Signals[];
}

/**
 * Makes sure that the exit of this process leaves no solver behind: on 'exit' and on each
 * watched signal every running solver group is killed. When the reaper is the only listener of a
 * signal it re-raises it after the kill, so the signal keeps its default effect (the process
 * terminates); when the application listens too, the application decides what happens next.
 * Returns a function that removes the handlers.
 */
export function installSolverReaper(options: SolverReaperOptions = {}): () => void {
  const signals = options.signals ?? ['SIGINT', 'SIGTERM'];
  const onExit = (): void => {
    killAllSolvers();
  };
  const onSignal = (signal: NodeJS.Signals): void => {
    killAllSolvers();
    if (process.listenerCount(signal) === 1) {
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
    }
  };
  process.on('exit', onExit);
  for (const signal of signals) process.on(signal, onSignal);
  return () => {
    process.off('exit', onExit);
    for (const signal of signals) process.off(signal, onSignal);
  };
}
