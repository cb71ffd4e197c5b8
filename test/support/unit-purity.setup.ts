import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import net from 'node:net';

import { afterEach, expect } from 'vitest';

/**
 * The unit project's rule, enforced in every unit spec's process: no child process (so no
 * solver) and no socket (so no Redis, no PostgreSQL, no server). A spec that needs them belongs
 * to the integration project (README.md#tests).
 */
const RULE =
  'unit specs start no process and open no socket (no solver, no Redis, no PostgreSQL, no server): ' +
  'name the spec *.int-spec.ts to run it in the integration project (README.md#tests)';

/** What a spec tried, kept so that a library which swallows the error still fails the test. */
const refused: string[] = [];

function refuse(what: string): never {
  const message = `${what} in a unit spec: ${RULE}`;
  refused.push(message);
  throw new Error(message);
}

const PROCESS_STARTERS = [
  'spawn',
  'spawnSync',
  'exec',
  'execSync',
  'execFile',
  'execFileSync',
  'fork',
] as const;
for (const name of PROCESS_STARTERS)
  Object.defineProperty(childProcess, name, {
    value: () => refuse(`child_process.${name}()`),
    configurable: true,
    writable: true,
  });
// ESM importers of node:child_process see the replaced functions too.
syncBuiltinESMExports();

// Every TCP, TLS and Unix socket client (ioredis, pg, fetch, http) connects through this method.
net.Socket.prototype.connect = function connect(): never {
  return refuse('a socket connection');
};
net.Server.prototype.listen = function listen(): never {
  return refuse('a listening server');
};

// The strong cube tables are a cache that the machine's processes share: a unit spec reads no
// file outside a folder of its own, so the cube's lower bound takes the small databases alone.
process.env['SATFARM_PDB_DIR'] = 'off';

afterEach(() => {
  const tried = refused.splice(0);
  expect(tried, tried[0]).toEqual([]);
});
