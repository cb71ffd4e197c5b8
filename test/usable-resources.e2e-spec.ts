import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, totalmem } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from './support/farm-processes.js';
import { repoRoot } from './support/run-cli.js';

/**
 * A worker's defaults under real cgroup limits: cgroups made for the test (v2 or v1, whichever
 * the machine mounts) limit it to 1.5 CPUs and 1 GiB, as `docker run --cpus 1.5 --memory 1g` or
 * a pod's `limits` would. The worker must start one solver slot, not one per core, and size its
 * formulas by the gigabyte, not by the machine's memory.
 */
const CGROUP_ROOT = '/sys/fs/cgroup';
const v2 = existsSync(join(CGROUP_ROOT, 'cgroup.controllers'));
const name = `satfarm-test-${process.pid}`;
const cpuGroup = join(v2 ? CGROUP_ROOT : join(CGROUP_ROOT, 'cpu'), name);
const memoryGroup = join(v2 ? CGROUP_ROOT : join(CGROUP_ROOT, 'memory'), name);
const groups = [...new Set([cpuGroup, memoryGroup])];
const prefix = uniquePrefix('cores');
const MiB = 2 ** 20;

/**
 * Makes the test's cgroups with a quota of `cpus` and a memory limit of `memoryBytes`; false
 * where this process may not (not root).
 */
function makeLimitedGroups(cpus: number, memoryBytes: number): boolean {
  try {
    if (v2) {
      const enabled = readFileSync(join(CGROUP_ROOT, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
      for (const controller of ['cpu', 'memory'])
        if (!enabled.includes(controller))
          writeFileSync(join(CGROUP_ROOT, 'cgroup.subtree_control'), `+${controller}`);
    }
    for (const group of groups) mkdirSync(group);
    if (v2) {
      writeFileSync(join(cpuGroup, 'cpu.max'), `${cpus * 100000} 100000`);
      writeFileSync(join(memoryGroup, 'memory.max'), String(memoryBytes));
    } else {
      writeFileSync(join(cpuGroup, 'cpu.cfs_period_us'), '100000');
      writeFileSync(join(cpuGroup, 'cpu.cfs_quota_us'), String(cpus * 100000));
      writeFileSync(join(memoryGroup, 'memory.limit_in_bytes'), String(memoryBytes));
    }
    return true;
  } catch {
    return false;
  }
}

/** `satfarm worker` started inside `cgroups` (or where the test runs): its first line, then stopped. */
function workerBanner(cgroups: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    const start = cgroups.map((group) => `echo $$ > ${join(group, 'cgroup.procs')} && `).join('');
    const child = spawn('sh', ['-c', `${start}exec ${repoRoot}bin/satfarm worker`], {
      cwd: repoRoot,
      env: {
        ...process.env,
        REDIS_URL: TEST_REDIS_URL,
        SATFARM_PREFIX: prefix,
        SATFARM_WORKER_SLOTS: '',
        SATFARM_FORMULA_MEMORY_MIB: '',
      },
    });
    let stderr = '';
    let banner: string | undefined;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      const line = /^satfarm worker: .*$/m.exec(stderr)?.[0];
      if (line !== undefined && banner === undefined) {
        banner = line;
        child.kill('SIGTERM');
      }
    });
    child.on('error', reject);
    child.on('close', () =>
      banner === undefined ? reject(new Error(`no banner: ${stderr}`)) : resolve(banner),
    );
  });
}

afterAll(async () => {
  for (const group of groups) if (existsSync(group)) rmdirSync(group);
  await deletePrefix(prefix);
});

describe("a worker's defaults under cgroup limits", () => {
  it('are what the process may use: 1.5 CPUs and 1 GiB give one slot and 128 MiB formulas; none, the machine', async () => {
    if (!makeLimitedGroups(1.5, 1024 * MiB)) {
      // Only root may make a cgroup; CI runs as root on this kind of machine.
      expect(process.getuid?.()).not.toBe(0);
      return;
    }
    // An eighth of 1 GiB, for one slot.
    expect(await workerBanner(groups)).toBe(
      `satfarm worker: 1 solver slot on ${prefix}, formulas up to 128 MiB each`,
    );
    const cores = availableParallelism();
    const formulaMiB = Math.floor(totalmem() / 8 / cores / MiB);
    expect(await workerBanner()).toBe(
      `satfarm worker: ${cores} solver slot${cores === 1 ? '' : 's'} on ${prefix}, formulas up to ${formulaMiB} MiB each`,
    );
  });
});
