import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';

/** A free TCP port on loopback (the kernel's choice; free when this resolves). */
export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Where a private redis-server runs: another host's network (test-hosts.ts) and its address. */
export interface PrivateRedisPlace {
  /** Runs redis-server through this command prefix (`ip netns exec <name>`). */
  launcher: string[];
  /** The address it binds, on that host. */
  host: string;
}

/**
 * A private redis-server for fault specs, on its own loopback port (or on another host, `place`),
 * with append-only persistence fsynced on every write (so a kill loses nothing it acknowledged)
 * and a password, in `dir`. `kill()` and `start()` restart it on the same port and data.
 */
export class PrivateRedis {
  private child?: ChildProcess;

  private constructor(
    readonly port: number,
    readonly password: string,
    private readonly dir: string,
    private readonly place?: PrivateRedisPlace,
  ) {}

  static async start(dir: string, password: string, place?: PrivateRedisPlace): Promise<PrivateRedis> {
    // A host of its own has every port free.
    const port = place === undefined ? await freeLoopbackPort() : 6379;
    const redis = new PrivateRedis(port, password, dir, place);
    await redis.start();
    return redis;
  }

  /** The address it listens on. */
  get host(): string {
    return this.place?.host ?? '127.0.0.1';
  }

  /** The URL farm processes are given. */
  get url(): string {
    return `redis://:${this.password}@${this.host}:${this.port}`;
  }

  /** Starts redis-server and resolves once it accepts connections (it has replayed its AOF). */
  start(): Promise<void> {
    const [command, ...launch] = [...(this.place?.launcher ?? []), 'redis-server'];
    const child = spawn(
      command,
      [
        ...launch,
        '--port',
        String(this.port),
        '--bind',
        this.host,
        '--dir',
        this.dir,
        '--appendonly',
        'yes',
        '--appendfsync',
        'always',
        '--save',
        '',
        '--requirepass',
        this.password,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    this.child = child;
    let out = '';
    return new Promise((resolve, reject) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('Ready to accept connections')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${out}`)));
    });
  }

  /** Ends redis-server with `signal` (SIGKILL: no shutdown of its own) and waits for its exit. */
  async kill(signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const child = this.child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }
}
