import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Prefix of every per-run work directory. */
export const WORK_DIR_PREFIX = 'satfarm-solver-';

/**
 * Runs `body` with a fresh private directory under `parent` (default: the OS temp directory)
 * and removes the directory afterwards, whether `body` returns or throws.
 */
export async function withWorkDir<T>(
  parent: string | undefined,
  body: (dir: string) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(parent ?? tmpdir(), WORK_DIR_PREFIX));
  try {
    return await body(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
