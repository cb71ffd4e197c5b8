import { childrenOf, commandLine, processTimes, type ProcessTimes, TICKS_PER_SECOND } from './proc-files.js';

/** CPU seconds spent by each part of a farm on one machine over a stretch of time. */
export interface CpuByRole {
  api: number;
  workers: number;
  /** The processes that start solvers for the api or the workers (their own time only). */
  spawnHosts: number;
  /** Solver processes, counted when reaped (their wrappers such as setpriv included). */
  solvers: number;
  /** The benchmark's own redis-server; 0 when the farm uses an outside Redis. */
  redis: number;
  /** This process: the client submitting and following jobs. */
  client: number;
}

type Role = keyof CpuByRole;

/** Every process of the farm by role, with its times now. */
function snapshot(farm: {
  api: number;
  workers: number[];
}): Map<number, { role: Role; times: ProcessTimes }> {
  const found = new Map<number, { role: Role; times: ProcessTimes }>();
  const add = (pid: number, role: Role): void => {
    const t = processTimes(pid);
    if (t !== undefined) found.set(pid, { role, times: t });
  };
  add(process.pid, 'client');
  for (const pid of childrenOf(process.pid)) {
    if (commandLine(pid).startsWith('redis-server')) add(pid, 'redis');
  }
  for (const [owner, role] of [
    [farm.api, 'api'] as const,
    ...farm.workers.map((w) => [w, 'workers'] as const),
  ]) {
    add(owner, role);
    for (const child of childrenOf(owner)) {
      if (commandLine(child).includes('spawn-host')) add(child, 'spawnHosts');
    }
  }
  return found;
}

/**
 * Measures where the CPU goes while `work` runs: each process's own time, and the time of the
 * solvers its spawn host (or, with direct launch, the api or worker itself) reaped meanwhile.
 * Read from /proc (Linux), at the start and the end only, so it costs the farm nothing.
 */
export async function cpuByRole<T>(
  farm: { api: number; workers: number[] },
  work: () => Promise<T>,
): Promise<{ result: T; cpu: CpuByRole }> {
  const before = snapshot(farm);
  const result = await work();
  const after = snapshot(farm);
  const cpu: CpuByRole = { api: 0, workers: 0, spawnHosts: 0, solvers: 0, redis: 0, client: 0 };
  for (const [pid, { role, times: now }] of after) {
    const then = before.get(pid)?.times ?? { own: 0, reaped: 0 };
    cpu[role] += (now.own - then.own) / TICKS_PER_SECOND;
    // Only solvers are reaped while the farm runs (spawn hosts live as long as their owner).
    if (role !== 'client' && role !== 'redis') cpu.solvers += (now.reaped - then.reaped) / TICKS_PER_SECOND;
  }
  return { result, cpu };
}
