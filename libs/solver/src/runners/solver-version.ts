import { execFile } from 'node:child_process';

import { SolverError } from '../solver.error.js';
import type { SolverDialect } from './solver-dialect.js';

const VERSION_TIMEOUT_MS = 10_000;

const pending = new Map<string, Promise<string>>();
const known = new Map<string, string>();

/**
 * The `name version` of a solver binary, asked once per binary and then cached. A binary that
 * cannot be started rejects with `SolverError` ('missing-binary') and is asked again next time;
 * one that starts but gives no usable answer is reported by its name alone.
 */
export function solverVersion(dialect: SolverDialect, binary: string): Promise<string> {
  const key = cacheKey(dialect, binary);
  let version = pending.get(key);
  if (version === undefined) {
    version = askVersion(dialect, binary).then(
      (v) => {
        known.set(key, v);
        return v;
      },
      (err: unknown) => {
        pending.delete(key);
        throw err;
      },
    );
    pending.set(key, version);
  }
  return version;
}

/** The cached version, if it was already asked. */
export function knownVersion(dialect: SolverDialect, binary: string): string | undefined {
  return known.get(cacheKey(dialect, binary));
}

/** The first non-empty line of a version command's output. */
export function firstLine(text: string): string {
  return (
    text
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l !== '') ?? ''
  );
}

function askVersion(dialect: SolverDialect, binary: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(binary, [...dialect.versionArgs], { timeout: VERSION_TIMEOUT_MS }, (err, stdout) => {
      const code = (err as NodeJS.ErrnoException | null)?.code;
      if (code === 'ENOENT' || code === 'EACCES') {
        const why = code === 'ENOENT' ? 'not found' : 'not executable';
        const hint = `install ${dialect.name} or pass its path as the 'binary' option`;
        reject(new SolverError('missing-binary', dialect.name, `cannot start '${binary}': ${why} (${hint})`));
        return;
      }
      resolve(err === null ? dialect.parseVersion(stdout) : dialect.name);
    });
  });
}

function cacheKey(dialect: SolverDialect, binary: string): string {
  return `${dialect.name}\u0000${binary}`;
}
