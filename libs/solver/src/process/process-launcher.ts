import { type ChildProcess, spawn } from 'node:child_process';
import { PassThrough, type Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { dieWithParent } from './resource-limits.js';

/** A started solver process: the leader of its own process group. */
export interface SolverChild {
  readonly pid: number;
  readonly stdin: Writable;
  readonly stdout: Readable;
  readonly stderr: Readable;
  /** Settles when the leader has exited (its output may still be flowing). */
  readonly exited: Promise<void>;
  /** Settles once the leader has exited and its output has ended: exit code and signal. */
  readonly closed: Promise<[number | null, NodeJS.Signals | null]>;
}

/** Starts solver processes, each detached into its own process group. */
export interface ProcessLauncher {
  /** Rejects with the errno error (`code` ENOENT, EACCES...) when the command cannot start. */
  launch(command: string, args: readonly string[]): Promise<SolverChild>;
}

/** How solver processes are started: from a spawn host (the default) or by this process itself. */
export type LaunchMode = 'host' | 'direct';

/** Spawns from this process: simple, but the fork blocks this event loop (see the spawn host). */
export const directLauncher: ProcessLauncher = {
  launch(command, args) {
    const child = spawn(command, [...args], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const closed = new Promise<[number | null, NodeJS.Signals | null]>((resolve) =>
      child.once('close', (code, signal) => resolve([code, signal])),
    );
    return new Promise((resolve, reject) => {
      child.once('error', reject);
      child.once('spawn', () => {
        child.off('error', reject);
        // Errors after the start (a failed kill) change nothing that the exit status does not say.
        child.on('error', () => {});
        resolve({
          pid: child.pid!,
          stdin: child.stdin,
          stdout: child.stdout,
          stderr: child.stderr,
          exited,
          closed,
        });
      });
    });
  },
};

interface HostMessage {
  op: 'ready' | 'spawned' | 'spawn-error' | 'stdin-ack' | 'stdout' | 'stderr' | 'exit' | 'close';
  id: number;
  pid?: number;
  code?: string | number | null;
  message?: string;
  data?: string;
  signal?: NodeJS.Signals | null;
}

/** The owner's side of one process started by the host. */
class HostedChild implements SolverChild {
  readonly stdout = new PassThrough({ encoding: 'utf8' });
  readonly stderr = new PassThrough({ encoding: 'utf8' });
  readonly stdin: Writable;
  readonly exited: Promise<void>;
  readonly closed: Promise<[number | null, NodeJS.Signals | null]>;
  private markExited!: () => void;
  private markClosed!: (status: [number | null, NodeJS.Signals | null]) => void;
  private ackWaiter: (() => void) | undefined;
  private done = false;

  constructor(
    readonly pid: number,
    id: number,
    sendToHost: (message: Record<string, unknown>) => void,
  ) {
    this.exited = new Promise((resolve) => (this.markExited = resolve));
    this.closed = new Promise((resolve) => (this.markClosed = resolve));
    // One batch of input in flight at a time, acknowledged once the solver's pipe took it: the
    // pipe's back-pressure reaches the writer, and what queues meanwhile goes as one message.
    const forward = (data: string, callback: (error?: Error | null) => void): void => {
      if (this.done) return callback();
      this.ackWaiter = () => callback();
      sendToHost({ op: 'stdin', id, data });
    };
    this.stdin = new Writable({
      decodeStrings: false,
      highWaterMark: 1 << 20,
      write: (chunk: string | Buffer, _encoding, callback) => forward(chunk.toString(), callback),
      writev: (chunks, callback) => forward(chunks.map((c) => String(c.chunk)).join(''), callback),
      final: (callback) => {
        if (!this.done) sendToHost({ op: 'stdin-end', id });
        callback();
      },
    });
  }

  receive(message: HostMessage): void {
    switch (message.op) {
      case 'stdin-ack': {
        const waiter = this.ackWaiter;
        this.ackWaiter = undefined;
        waiter?.();
        break;
      }
      case 'stdout':
        this.stdout.write(message.data ?? '');
        break;
      case 'stderr':
        this.stderr.write(message.data ?? '');
        break;
      case 'exit':
        this.markExited();
        break;
      case 'close':
        this.finish(typeof message.code === 'number' ? message.code : null, message.signal ?? null);
        break;
    }
  }

  /** The process is gone (or the host is): output ends, input is dropped. */
  finish(code: number | null, signal: NodeJS.Signals | null): void {
    if (this.done) return;
    this.done = true;
    this.markExited();
    const waiter = this.ackWaiter;
    this.ackWaiter = undefined;
    waiter?.();
    this.stdin.destroy();
    this.stdout.end();
    this.stderr.end();
    // As with a child's own pipes, `closed` waits for the reader to take the output to its end
    // (the reader may attach after every message of a quick process has arrived).
    let open = 2;
    const ended = (): void => {
      if (--open === 0) this.markClosed([code, signal]);
    };
    this.stdout.once('end', ended);
    this.stderr.once('end', ended);
  }
}

const HOST_PROGRAM = fileURLToPath(new URL('./spawn-host.program.mjs', import.meta.url));

/**
 * Starts solver processes from a spawn host: a small helper Node process (see
 * `spawn-host.program.mjs`) that forks them, so this process's event loop never pays for a fork.
 * The host is started on first use, tied to this process (it dies with it, by the kernel's
 * parent-death signal where util-linux `setpriv` is present, and by the IPC channel closing in any
 * case, killing every solver it started), and started again if it dies. Its channel keeps this
 * process alive only while solvers run.
 */
export class SpawnHostLauncher implements ProcessLauncher {
  private host: ChildProcess | undefined;
  private ready: Promise<ChildProcess> | undefined;
  private readonly children = new Map<number, HostedChild>();
  private readonly pending = new Map<
    number,
    { resolve: (child: SolverChild) => void; reject: (err: Error) => void }
  >();
  private nextId = 1;

  constructor(private readonly program: string = HOST_PROGRAM) {}

  async launch(command: string, args: readonly string[]): Promise<SolverChild> {
    const host = await this.started();
    const id = this.nextId++;
    this.hold();
    return new Promise<SolverChild>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      host.send({ op: 'spawn', id, command, args: [...args] });
    }).catch((err: unknown) => {
      this.release();
      throw err;
    });
  }

  /** Number of processes started through this host that have not closed yet. */
  get running(): number {
    return this.children.size;
  }

  private started(): Promise<ChildProcess> {
    this.ready ??= new Promise<ChildProcess>((resolve, reject) => {
      const { command, args } = dieWithParent({ command: process.execPath, args: [this.program] });
      const host = spawn(command, args, {
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        serialization: 'advanced',
      });
      this.host = host;
      const failed = (err: Error): void => {
        this.ready = undefined;
        reject(new Error(`the solver spawn host did not start: ${err.message}`, { cause: err }));
      };
      host.once('error', failed);
      host.on('message', (message: HostMessage) => {
        if (message.op === 'ready') {
          host.off('error', failed);
          host.on('error', () => {});
          this.idle();
          resolve(host);
        } else {
          this.receive(message);
        }
      });
      host.once('exit', (code, signal) => this.lost(host, `exited (${signal ?? code})`));
    });
    return this.ready;
  }

  private receive(message: HostMessage): void {
    if (message.op === 'spawned' || message.op === 'spawn-error') {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (waiter === undefined) return;
      if (message.op === 'spawn-error') {
        const err = new Error(message.message ?? 'spawn failed') as NodeJS.ErrnoException;
        err.code = typeof message.code === 'string' ? message.code : undefined;
        waiter.reject(err);
        return;
      }
      const child = new HostedChild(message.pid!, message.id, (m) => this.host?.send(m));
      this.children.set(message.id, child);
      void child.closed.then(() => {
        this.children.delete(message.id);
        this.release();
      });
      waiter.resolve(child);
      return;
    }
    this.children.get(message.id)?.receive(message);
  }

  /** The host died: its solvers died with it (parent-death signal); their runs end as killed. */
  private lost(host: ChildProcess, why: string): void {
    if (this.host !== host) return;
    this.host = undefined;
    this.ready = undefined;
    for (const [id, waiter] of this.pending) {
      this.pending.delete(id);
      waiter.reject(new Error(`the solver spawn host ${why}`));
    }
    for (const child of this.children.values()) child.finish(null, 'SIGKILL');
  }

  // The channel keeps this process alive only while something runs through it.
  private inFlight = 0;

  private hold(): void {
    if (this.inFlight++ === 0) this.host?.channel?.ref();
  }

  private release(): void {
    if (--this.inFlight === 0) this.idle();
  }

  private idle(): void {
    if (this.inFlight > 0) return;
    this.host?.channel?.unref();
    this.host?.unref();
  }
}

let sharedHost: SpawnHostLauncher | undefined;

/** The launcher for `mode`: one spawn host shared by every solver of this process, or direct. */
export function launcherFor(mode: LaunchMode): ProcessLauncher {
  if (mode === 'direct') return directLauncher;
  sharedHost ??= new SpawnHostLauncher();
  return sharedHost;
}
