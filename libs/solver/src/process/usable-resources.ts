import { readFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { dirname, join } from 'node:path';

/** Where the kernel shows the process's cgroups: the mount and the process's own membership. */
export interface CgroupPaths {
  /** The cgroup file system's mount (v2: the unified tree; v1: the folder of the controllers). */
  root: string;
  /** `/proc/self/cgroup`: which cgroup of each hierarchy the process is in. */
  membership: string;
}

const SYSTEM_CGROUPS: CgroupPaths = { root: '/sys/fs/cgroup', membership: '/proc/self/cgroup' };

/**
 * The cores this process may keep busy: the CPUs its affinity allows (`availableParallelism`),
 * and no more than its cgroup's CPU quota, the limit a container's `--cpus` or a pod's
 * `limits.cpu` sets, which the affinity does not show. Each solver is one busy thread, so a
 * fractional quota counts whole cores only (1.5 CPUs: 1), never under 1. This is the default
 * number of solver slots: more solvers than the quota allows only share it and are throttled.
 */
export function usableCores(paths: CgroupPaths = SYSTEM_CGROUPS): number {
  const quota = cgroupCpuQuota(paths);
  const cores = availableParallelism();
  return quota === undefined ? cores : Math.max(1, Math.min(cores, Math.floor(quota)));
}

/**
 * The smallest CPU quota (in CPUs) on the process's cgroup and its ancestors, cgroup v2 or v1;
 * undefined when none is set or none can be read (not Linux, no cgroup file system).
 */
export function cgroupCpuQuota(paths: CgroupPaths = SYSTEM_CGROUPS): number | undefined {
  return smallestOnCgroups(
    paths,
    { controller: 'cpu', mounts: ['cpu', 'cpu,cpuacct'] },
    (dir) => parseV2(readText(join(dir, 'cpu.max'))),
    (dir) => parseV1(readText(join(dir, 'cpu.cfs_quota_us')), readText(join(dir, 'cpu.cfs_period_us'))),
  );
}

/**
 * The memory this process may use, in bytes: the machine's, and no more than its cgroup's limit
 * (a container's `--memory`, a pod's `limits.memory`), which the machine's total does not show.
 */
export function usableMemory(paths: CgroupPaths = SYSTEM_CGROUPS): number {
  const limit = cgroupMemoryLimit(paths);
  return limit === undefined ? totalmem() : Math.min(totalmem(), limit);
}

/**
 * The smallest memory limit (bytes) on the process's cgroup and its ancestors, cgroup v2
 * (`memory.max`) or v1 (`memory.limit_in_bytes`, where "no limit" is a number near 2^63);
 * undefined when none is set or none can be read.
 */
export function cgroupMemoryLimit(paths: CgroupPaths = SYSTEM_CGROUPS): number | undefined {
  const bytes = (text: string | undefined): number | undefined => {
    const value = text?.trim();
    if (value === undefined || !/^\d+$/.test(value)) return undefined;
    const n = Number(value);
    return n > 0 && n < 2 ** 62 ? n : undefined;
  };
  return smallestOnCgroups(
    paths,
    { controller: 'memory', mounts: ['memory'] },
    (dir) => bytes(readText(join(dir, 'memory.max'))),
    (dir) => bytes(readText(join(dir, 'memory.limit_in_bytes'))),
  );
}

/**
 * The smallest value `v2` or `v1` reads on the process's cgroup and its ancestors: in the unified
 * tree (v2), or under the v1 hierarchy that has `v1Of.controller` (mounted under its own list of
 * controllers or one of `v1Of.mounts`).
 */
function smallestOnCgroups(
  paths: CgroupPaths,
  v1Of: { controller: string; mounts: string[] },
  v2: (dir: string) => number | undefined,
  v1: (dir: string) => number | undefined,
): number | undefined {
  const membership = readText(paths.membership);
  if (membership === undefined) return undefined;
  const values: number[] = [];
  for (const line of membership.split('\n')) {
    // hierarchy-id:controllers:path; v2 is `0::/path`, v1 names its controllers.
    const match = /^(\d+):([^:]*):(\/.*)$/.exec(line.trim());
    if (match === null) continue;
    const [, id, controllers, path] = match as unknown as [string, string, string, string];
    const dirs =
      id === '0' && controllers === ''
        ? selfAndAncestors(paths.root, path).map((dir) => ({ dir, read: v2 }))
        : controllers.split(',').includes(v1Of.controller)
          ? [...new Set([controllers, ...v1Of.mounts])].flatMap((mount) =>
              selfAndAncestors(join(paths.root, mount), path).map((dir) => ({ dir, read: v1 })),
            )
          : [];
    for (const { dir, read } of dirs) {
      const value = read(dir);
      if (value !== undefined) values.push(value);
    }
  }
  return values.length === 0 ? undefined : Math.min(...values);
}

/** `root + path`, then each parent folder up to `root` itself. */
function selfAndAncestors(root: string, path: string): string[] {
  const dirs: string[] = [];
  for (let p = path; ; p = dirname(p)) {
    dirs.push(join(root, p));
    if (p === '/' || p === '.' || p === '') break;
  }
  return dirs;
}

/** cgroup v2 `cpu.max`: `max 100000` (no quota) or `150000 100000` (1.5 CPUs). */
function parseV2(text: string | undefined): number | undefined {
  const [quota, period] = (text ?? '').trim().split(/\s+/);
  return ratio(quota, period);
}

/** cgroup v1: `cpu.cfs_quota_us` (-1 for none) over `cpu.cfs_period_us`. */
function parseV1(quota: string | undefined, period: string | undefined): number | undefined {
  return ratio(quota?.trim(), period?.trim());
}

function ratio(quota: string | undefined, period: string | undefined): number | undefined {
  if (quota === undefined || period === undefined || !/^\d+$/.test(quota) || !/^\d+$/.test(period))
    return undefined;
  const q = Number(quota);
  const p = Number(period);
  return q > 0 && p > 0 ? q / p : undefined;
}

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
