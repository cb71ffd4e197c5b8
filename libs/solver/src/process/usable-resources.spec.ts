import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir, totalmem } from 'node:os';
import { dirname, join } from 'node:path';

import { afterEach, describe, expect, it } from 'vitest';

import { cgroupCpuQuota, cgroupMemoryLimit, usableCores, usableMemory } from './usable-resources.js';

/** A cgroup tree laid out as the kernel shows it, in a temporary folder. */
const trees: string[] = [];
function cgroupTree(membership: string, files: Record<string, string>): { root: string; membership: string } {
  const root = mkdtempSync(join(tmpdir(), 'satfarm-cgroup-'));
  trees.push(root);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  writeFileSync(join(root, 'self-cgroup'), membership);
  return { root, membership: join(root, 'self-cgroup') };
}

afterEach(() => trees.splice(0).forEach((t) => rmSync(t, { recursive: true, force: true })));

describe(cgroupCpuQuota.name, () => {
  it('reads a cgroup v2 quota of the process, in CPUs', () => {
    const paths = cgroupTree('0::/\n', { 'cpu.max': '150000 100000\n' });
    expect(cgroupCpuQuota(paths)).toBe(1.5);
  });

  it('takes the smallest quota on the cgroup and its ancestors (v2, nested)', () => {
    const paths = cgroupTree('0::/kubepods/pod1/ctr\n', {
      'kubepods/cpu.max': '800000 100000',
      'kubepods/pod1/cpu.max': '200000 100000',
      'kubepods/pod1/ctr/cpu.max': 'max 100000',
    });
    expect(cgroupCpuQuota(paths)).toBe(2);
  });

  it('reads a cgroup v1 CFS quota under the cpu controller (also mounted as cpu,cpuacct)', () => {
    const v1 = cgroupTree('4:memory:/docker/x\n3:cpu,cpuacct:/docker/x\n', {
      'cpu,cpuacct/docker/x/cpu.cfs_quota_us': '300000\n',
      'cpu,cpuacct/docker/x/cpu.cfs_period_us': '100000\n',
    });
    expect(cgroupCpuQuota(v1)).toBe(3);
  });

  it('has no quota for "max", -1, unreadable or garbled files, or no cgroup file system', () => {
    expect(cgroupCpuQuota(cgroupTree('0::/\n', { 'cpu.max': 'max 100000' }))).toBeUndefined();
    expect(
      cgroupCpuQuota(
        cgroupTree('1:cpu:/\n', { 'cpu/cpu.cfs_quota_us': '-1', 'cpu/cpu.cfs_period_us': '100000' }),
      ),
    ).toBeUndefined();
    expect(cgroupCpuQuota(cgroupTree('0::/\n', { 'cpu.max': 'lots' }))).toBeUndefined();
    expect(cgroupCpuQuota(cgroupTree('0::/\n', {}))).toBeUndefined();
    expect(cgroupCpuQuota({ root: '/nonexistent', membership: '/nonexistent/cgroup' })).toBeUndefined();
  });
});

describe(usableCores.name, () => {
  it('is the affinity CPUs without a quota, the quota in whole CPUs under it, and never 0', () => {
    const cores = availableParallelism();
    expect(usableCores(cgroupTree('0::/\n', {}))).toBe(cores);
    expect(usableCores(cgroupTree('0::/\n', { 'cpu.max': '150000 100000' }))).toBe(1);
    expect(usableCores(cgroupTree('0::/\n', { 'cpu.max': '50000 100000' }))).toBe(1);
    expect(usableCores(cgroupTree('0::/\n', { 'cpu.max': `${(cores + 8) * 100000} 100000` }))).toBe(cores);
  });
});

describe(cgroupMemoryLimit.name, () => {
  it('reads the smallest limit on the cgroup and its ancestors, v2 or v1, in bytes', () => {
    const v2 = cgroupTree('0::/kubepods/pod1/ctr\n', {
      'kubepods/memory.max': `${8 * 2 ** 30}\n`,
      'kubepods/pod1/memory.max': `${1536 * 2 ** 20}\n`,
      'kubepods/pod1/ctr/memory.max': 'max\n',
    });
    expect(cgroupMemoryLimit(v2)).toBe(1536 * 2 ** 20);
    const v1 = cgroupTree('4:memory:/docker/x\n3:cpu,cpuacct:/docker/x\n', {
      'memory/docker/x/memory.limit_in_bytes': `${512 * 2 ** 20}\n`,
    });
    expect(cgroupMemoryLimit(v1)).toBe(512 * 2 ** 20);
  });

  it('has no limit for "max", v1\'s near-2^63 "unlimited", garbled files, or no cgroup file system', () => {
    expect(cgroupMemoryLimit(cgroupTree('0::/\n', { 'memory.max': 'max' }))).toBeUndefined();
    expect(
      cgroupMemoryLimit(
        cgroupTree('4:memory:/\n', { 'memory/memory.limit_in_bytes': '9223372036854771712\n' }),
      ),
    ).toBeUndefined();
    expect(cgroupMemoryLimit(cgroupTree('0::/\n', { 'memory.max': 'plenty' }))).toBeUndefined();
    // A v1 memory limit is no CPU quota, and a CPU quota no memory limit.
    expect(
      cgroupCpuQuota(cgroupTree('4:memory:/\n', { 'memory/memory.limit_in_bytes': '1048576' })),
    ).toBeUndefined();
    expect(cgroupMemoryLimit(cgroupTree('0::/\n', { 'cpu.max': '100000 100000' }))).toBeUndefined();
    expect(cgroupMemoryLimit({ root: '/nonexistent', membership: '/nonexistent/cgroup' })).toBeUndefined();
  });
});

describe(usableMemory.name, () => {
  it("is the machine's memory without a limit, and the limit under it", () => {
    expect(usableMemory(cgroupTree('0::/\n', {}))).toBe(totalmem());
    expect(usableMemory(cgroupTree('0::/\n', { 'memory.max': String(2 ** 30) }))).toBe(2 ** 30);
    expect(usableMemory(cgroupTree('0::/\n', { 'memory.max': String(totalmem() * 2) }))).toBe(totalmem());
  });
});
