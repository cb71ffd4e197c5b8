import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PassThrough, type Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';

import { dieWithParent } from './resource-limits.js';
import {
  encodeOwnerFrame,
  HostFrameDecoder,
  type HostMessage,
  type OwnerMessage,
  type ProcessUsage,
} from './spawn-host.protocol.js';

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
  /**
   * Once `closed` has settled: the leader's peak memory and CPU time, where the launcher can
   * know them (the native host, from wait4); undefined elsewhere.
   */
  readonly usage: ProcessUsage | undefined;
}

/**
 * Starts solver processes, each detached into its own process group and tied to the life of the
 * process that started it (the kernel's parent-death signal kills it, even after a SIGKILL).
 */
export interface ProcessLauncher {
  /**
   * Rejects with the errno error (`code` ENOENT, EACCES...) when the command cannot start.
   * `input`, when given, is the whole standard input: it is sent with the start and the input is
   * closed after it (the child's `stdin` is already ended).
   */
  launch(command: string, args: readonly string[], input?: string): Promise<SolverChild>;
}

/**
 * How solver processes are started: from a spawn host (the default; the native host where it is
 * built, else the Node one), from the Node spawn host, or by this process itself.
 */
export type LaunchMode = 'host' | 'node-host' | 'direct';

/** Spawns from this process: simple, but the fork blocks this event loop (see the spawn host). */
export const directLauncher: ProcessLauncher = {
  launch(plainCommand, plainArgs, input) {
    // setpriv gives the solver its parent-death signal: it dies with this process.
    const { command, args } = dieWithParent({ command: plainCommand, args: [...plainArgs] });
    const child = spawn(command, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
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
        if (input !== undefined) {
          // A solver may exit before reading all of it: the exit status, not the pipe, says why.
          child.stdin.on('error', () => {});
          child.stdin.end(input);
        }
        resolve({
          pid: child.pid!,
          stdin: child.stdin,
          stdout: child.stdout,
          stderr: child.stderr,
          exited,
          closed,
          // Node's child_process gives no rusage of a child.
          usage: undefined,
        });
      });
    });
  },
};

/** The owner's side of one process started by the host. */
class HostedChild implements SolverChild {
  readonly stdout = new PassThrough({ encoding: 'utf8' });
  readonly stderr = new PassThrough({ encoding: 'utf8' });
  readonly stdin: Writable;
  readonly exited: Promise<void>;
  readonly closed: Promise<[number | null, NodeJS.Signals | null]>;
  usage: ProcessUsage | undefined;
  private markExited!: () => void;
  private markClosed!: (status: [number | null, NodeJS.Signals | null]) => void;
  private ackWaiter: (() => void) | undefined;
  private done = false;

  constructor(
    readonly pid: number,
    id: number,
    sendToHost: (message: OwnerMessage) => void,
    inputSent: boolean,
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
        if (!this.done && !inputSent) sendToHost({ op: 'stdin-end', id });
        callback();
      },
    });
    // The whole input went with the start (the host closes the pipe after it).
    if (inputSent) this.stdin.end();
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
        this.usage = message.usage;
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

const NODE_HOST_PROGRAM = fileURLToPath(new URL('./spawn-host.program.mjs', import.meta.url));

/**
 * Where `npm run build` puts the native host (libs/solver/native/spawn-host.c): dist/native, seen
 * from the built module (dist/libs/solver/src/process) or from the sources (libs/solver/src/process).
 */
const NATIVE_HOST_CANDIDATES = ['../../../../native/', '../../../../dist/native/'].map((dir) =>
  fileURLToPath(new URL(`${dir}satfarm-spawn-host`, import.meta.url)),
);

let nativeHostPath: string | null | undefined;

/** The built native spawn host, or undefined where it is not built (or not Linux). */
export function nativeSpawnHost(): string | undefined {
  nativeHostPath ??=
    process.platform === 'linux' ? (NATIVE_HOST_CANDIDATES.find((p) => existsSync(p)) ?? null) : null;
  return nativeHostPath ?? undefined;
}

/** A spawn host program: the native one (default where built) or the Node one. */
export interface SpawnHostProgram {
  kind: 'native' | 'node';
  path: string;
}

/** The owner's end of a running host. */
interface HostChannel {
  readonly process: ChildProcess;
  send(message: OwnerMessage): void;
  /** Whether the channel keeps this process alive. */
  ref(on: boolean): void;
  /** Whether the host takes a whole input with the spawn message. */
  readonly sendsInput: boolean;
}

/** Starts the Node host: messages over Node's IPC channel; the host dies with us through setpriv. */
function startNodeHost(path: string, onMessage: (message: HostMessage) => void): HostChannel {
  const { command, args } = dieWithParent({ command: process.execPath, args: [path] });
  const host = spawn(command, args, {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    serialization: 'advanced',
  });
  host.on('message', onMessage);
  return {
    process: host,
    send: (message) => {
      if (message.op !== 'spawn') return void host.send(message);
      // The Node host forks plainly: setpriv gives each solver its parent-death signal.
      const wrapped = dieWithParent({ command: message.command, args: message.args });
      host.send({ ...message, command: wrapped.command, args: wrapped.args });
    },
    ref: (on) => (on ? host.channel?.ref() : host.channel?.unref()),
    sendsInput: false,
  };
}

/** Starts the native host: frames over its stdin and stdout; it sets the death signals itself. */
function startNativeHost(path: string, onMessage: (message: HostMessage) => void): HostChannel {
  const host = spawn(path, [String(process.pid)], { stdio: ['pipe', 'pipe', 'inherit'] });
  // Frames sent in one turn of the event loop go in one write: each write wakes the host.
  let corked = false;
  const uncork = (): void => {
    corked = false;
    host.stdin.uncork();
  };
  const decoder = new HostFrameDecoder();
  host.stdout.on('data', (chunk: Buffer) => {
    let messages: HostMessage[];
    try {
      messages = decoder.push(chunk);
    } catch (err) {
      // A host that breaks the protocol is killed: its exit ends its runs as killed.
      process.stderr.write(`satfarm: ${err instanceof Error ? err.message : String(err)}; restarting it\n`);
      host.kill('SIGKILL');
      return;
    }
    for (const message of messages) onMessage(message);
  });
  // A write after the host died fails; its exit is what tells the owner.
  host.stdin.on('error', () => {});
  const pipes = [host.stdin, host.stdout] as unknown as { ref(): void; unref(): void }[];
  return {
    process: host,
    send: (message) => {
      if (!corked) {
        corked = true;
        host.stdin.cork();
        process.nextTick(uncork);
      }
      host.stdin.write(encodeOwnerFrame(message));
    },
    sendsInput: true,
    ref: (on) => pipes.forEach((pipe) => (on ? pipe.ref() : pipe.unref())),
  };
}

/** The host this process uses by default: the native one where it is built, else the Node one. */
export function defaultSpawnHost(): SpawnHostProgram {
  const native = nativeSpawnHost();
  return native !== undefined ? { kind: 'native', path: native } : nodeSpawnHost();
}

/** The Node spawn host (spawn-host.program.mjs). */
export function nodeSpawnHost(): SpawnHostProgram {
  return { kind: 'node', path: NODE_HOST_PROGRAM };
}

/**
 * Starts solver processes from a spawn host, a small helper process, so this process's event loop
 * never pays for a fork. The native host (libs/solver/native/spawn-host.c) is the default where it
 * is built; the Node host (`spawn-host.program.mjs`) is the fallback. The host is started on first
 * use, tied to this process (it dies with it, by the kernel's parent-death signal and by its
 * channel closing, killing every solver it started), and started again if it dies. Its channel
 * keeps this process alive only while solvers run.
 */
export class SpawnHostLauncher implements ProcessLauncher {
  private host: HostChannel | undefined;
  private ready: Promise<HostChannel> | undefined;
  private readonly children = new Map<number, HostedChild>();
  private readonly pending = new Map<
    number,
    { resolve: (child: SolverChild) => void; reject: (err: Error) => void; bundled: boolean }
  >();
  private nextId = 1;

  constructor(readonly program: SpawnHostProgram = defaultSpawnHost()) {}

  async launch(command: string, args: readonly string[], input?: string): Promise<SolverChild> {
    const host = await this.started();
    const id = this.nextId++;
    this.hold();
    const bundled = input !== undefined && host.sendsInput;
    return new Promise<SolverChild>((resolve, reject) => {
      this.pending.set(id, { resolve, reject, bundled });
      host.send({ op: 'spawn', id, command, args: [...args], ...(bundled ? { input } : {}) });
    })
      .then((child) => {
        if (input !== undefined && !bundled) child.stdin.end(input);
        return child;
      })
      .catch((err: unknown) => {
        this.release();
        throw err;
      });
  }

  /** Number of processes started through this host that have not closed yet. */
  get running(): number {
    return this.children.size;
  }

  /** The host's pid, once it has started. */
  get hostPid(): number | undefined {
    return this.host?.process.pid;
  }

  private started(): Promise<HostChannel> {
    this.ready ??= new Promise<HostChannel>((resolve, reject) => {
      let channel: HostChannel | undefined = undefined;
      const onMessage = (message: HostMessage): void => {
        if (message.op !== 'ready') return this.receive(message);
        channel!.process.off('error', failed);
        channel!.process.on('error', () => {});
        this.host = channel;
        this.idle();
        resolve(channel!);
      };
      const start = this.program.kind === 'native' ? startNativeHost : startNodeHost;
      channel = start(this.program.path, onMessage);
      const host = channel.process;
      const failed = (err: Error): void => {
        this.ready = undefined;
        reject(new Error(`the solver spawn host did not start: ${err.message}`, { cause: err }));
      };
      host.once('error', failed);
      host.once('exit', (code, signal) => {
        if (this.host !== channel) failed(new Error(`it exited (${signal ?? code}) before it was ready`));
        this.lost(channel, `exited (${signal ?? code})`);
      });
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
      const child = new HostedChild(message.pid!, message.id, (m) => this.host?.send(m), waiter.bundled);
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
  private lost(host: HostChannel, why: string): void {
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
    if (this.inFlight++ === 0) {
      this.host?.ref(true);
      this.host?.process.ref();
    }
  }

  private release(): void {
    if (--this.inFlight === 0) this.idle();
  }

  private idle(): void {
    if (this.inFlight > 0) return;
    this.host?.ref(false);
    this.host?.process.unref();
  }
}

const sharedHosts = new Map<LaunchMode, SpawnHostLauncher>();

/**
 * The launcher for `mode`: `host`, one spawn host shared by every solver of this process (the
 * native one where built); `node-host`, the same with the Node host; `direct`, this process.
 */
export function launcherFor(mode: LaunchMode): ProcessLauncher {
  if (mode === 'direct') return directLauncher;
  let launcher = sharedHosts.get(mode);
  if (launcher === undefined) {
    launcher = new SpawnHostLauncher(mode === 'node-host' ? nodeSpawnHost() : defaultSpawnHost());
    sharedHosts.set(mode, launcher);
  }
  return launcher;
}
