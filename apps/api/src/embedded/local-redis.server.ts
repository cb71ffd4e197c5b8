import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SETPRIV = '/usr/bin/setpriv';

/** redis-server is not installed: the embedded default cannot start. */
export class RedisServerMissingError extends Error {
  constructor(binary: string) {
    super(`${binary} not found: install the redis-server package, or set REDIS_URL to a running Redis`);
    this.name = 'RedisServerMissingError';
  }
}

/**
 * A private redis-server for the embedded default (`satfarm serve` without `REDIS_URL`): on a free
 * loopback port, in a temporary directory, without persistence. It is stopped by `stop()`, and
 * killed if this process exits first, or dies.
 */
export class LocalRedisServer {
  private exited: Promise<void>;
  private readonly onExit = (): void => {
    this.child.kill('SIGKILL');
    rmSync(this.dir, { recursive: true, force: true });
  };

  private constructor(
    private readonly child: ChildProcess,
    private readonly dir: string,
    readonly port: number,
  ) {
    this.exited = new Promise((resolve) => child.once('exit', () => resolve()));
    process.once('exit', this.onExit);
  }

  /** `redis://127.0.0.1:<port>`. */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /**
   * Starts redis-server and resolves once it accepts connections. Its directory is named after
   * this process, and the directories of earlier ones that are gone are removed first: a process
   * killed by SIGKILL runs no exit handler, and would otherwise leave its (empty) directory behind.
   */
  static async start(binary = 'redis-server', parent = tmpdir()): Promise<LocalRedisServer> {
    removeStaleDirs(parent);
    const port = await freeLoopbackPort();
    const dir = mkdtempSync(join(parent, `${DIR_PREFIX}${process.pid}-`));
    // Under setpriv (util-linux, essential on Debian), the kernel kills the server when this
    // process dies, even by SIGKILL, where no exit handler runs.
    const command = existsSync(SETPRIV) ? SETPRIV : binary;
    const prefix = command === SETPRIV ? ['--pdeathsig', 'KILL', '--', binary] : [];
    const child = spawn(
      command,
      [
        ...prefix,
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--dir',
        dir,
        '--save',
        '',
        '--appendonly',
        'no',
        '--daemonize',
        'no',
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const server = new LocalRedisServer(child, dir, port);
    try {
      await new Promise<void>((resolve, reject) => {
        let output = '';
        const onData = (chunk: Buffer): void => {
          output += chunk.toString();
          if (output.includes('Ready to accept connections')) {
            child.stdout?.off('data', onData);
            child.stdout?.resume();
            resolve();
          }
        };
        child.stdout?.on('data', onData);
        child.stderr?.resume();
        child.once('error', (err: NodeJS.ErrnoException) =>
          reject(err.code === 'ENOENT' ? new RedisServerMissingError(binary) : err),
        );
        child.once('exit', (code) =>
          reject(
            // 127: setpriv found no such program.
            code === 127 && command === SETPRIV
              ? new RedisServerMissingError(binary)
              : new Error(`redis-server exited with code ${code}: ${output.trim().slice(-500)}`),
          ),
        );
      });
    } catch (err) {
      await server.stop();
      throw err;
    }
    return server;
  }

  /** Stops the server and removes its directory. */
  async stop(): Promise<void> {
    process.off('exit', this.onExit);
    if (this.child.pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      this.child.kill('SIGTERM');
      await this.exited;
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const DIR_PREFIX = 'satfarm-redis-';
/** A server directory's name: the prefix, the pid of the process that made it, a random part. */
const DIR_NAME = new RegExp(`^${DIR_PREFIX}(\\d+)-`);

/** Removes the server directories in `parent` whose process is gone (another user's stay). */
function removeStaleDirs(parent: string): void {
  let names: string[];
  try {
    names = readdirSync(parent);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = DIR_NAME.exec(name)?.[1];
    if (pid === undefined || isAlive(Number(pid))) continue;
    try {
      rmSync(join(parent, name), { recursive: true, force: true });
    } catch {
      // Not ours to remove.
    }
  }
}

/** Whether a process `pid` exists (one of another user's included). */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
