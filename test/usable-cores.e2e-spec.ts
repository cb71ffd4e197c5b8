import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { deletePrefix, TEST_REDIS_URL, uniquePrefix } from './support/farm-processes.js';
import { repoRoot } from './support/run-cli.js';

/**
 * A worker's default solver slots under a real CPU quota: a cgroup made for the test (v2 or v1,
 * whichever the machine mounts) limits it to 1.5 CPUs, as `docker run --cpus 1.5` or a pod's
 * `limits.cpu: 1500m` would, and the worker must start one solver slot, not one per core.
 */
const CGROUP_ROOT = '/sys/fs/cgroup';
const v2 = existsSync(join(CGROUP_ROOT, 'cgroup.controllers'));
const parent = v2 ? CGROUP_ROOT : join(CGROUP_ROOT, 'cpu');
const group = join(parent, `satfarm-test-${process.pid}`);
const prefix = uniquePrefix('cores');

/** Makes the test's cgroup with a quota of `cpus`; false where this process may not (not root). */
function makeQuotaGroup(cpus: number): boolean {
  try {
    if (v2) {
      const enabled = readFileSync(join(parent, 'cgroup.subtree_control'), 'utf8');
      if (!enabled.split(/\s+/).includes('cpu'))
        writeFileSync(join(parent, 'cgroup.subtree_control'), '+cpu');
    }
    mkdirSync(group);
    if (v2) writeFileSync(join(group, 'cpu.max'), `${cpus * 100000} 100000`);
    else {
      writeFileSync(join(group, 'cpu.cfs_period_us'), '100000');
      writeFileSync(join(group, 'cpu.cfs_quota_us'), String(cpus * 100000));
    }
    return true;
  } catch {
    return false;
  }
}

/** `satfarm worker` started inside `cgroup` (or where the test runs): its first line, then stopped. */
function workerBanner(cgroup?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const start = cgroup === undefined ? '' : `echo $$ > ${join(cgroup, 'cgroup.procs')} && `;
    const child = spawn('sh', ['-c', `${start}exec ${repoRoot}bin/satfarm worker`], {
      cwd: repoRoot,
      env: { ...process.env, REDIS_URL: TEST_REDIS_URL, SATFARM_PREFIX: prefix, SATFARM_WORKER_SLOTS: '' },
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
  if (existsSync(group)) rmdirSync(group);
  await deletePrefix(prefix);
});

describe('solver slots by default', () => {
  it('are the cores the process may use: a CPU quota of 1.5 gives one slot, none gives one per core', async () => {
    if (!makeQuotaGroup(1.5)) {
      // Only root may make a cgroup; CI runs as root on this kind of machine.
      expect(process.getuid?.()).not.toBe(0);
      return;
    }
    expect(await workerBanner(group)).toBe(`satfarm worker: 1 solver slot on ${prefix}`);
    const cores = availableParallelism();
    expect(await workerBanner()).toBe(
      `satfarm worker: ${cores} solver slot${cores === 1 ? '' : 's'} on ${prefix}`,
    );
  });
});
