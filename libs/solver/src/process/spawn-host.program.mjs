// @ts-check
/*
 * The spawn host: a small Node program that starts solver processes for the process that owns it
 * and relays their streams over the IPC channel, so that each fork, which costs in proportion to
 * the forking process's memory, stays off the owner's event loop (docs/farm.md#how-it-works).
 * Plain JavaScript so that it runs the same from the sources (tests) and from dist. Messages are
 * spawn-host.protocol.ts's, less the native host's `input` and `usage`; ids chosen by the owner.
 * Signals go from the owner straight to the process group; the host only spawns, relays and
 * reaps, and kills every group when the owner goes away (the channel closes).
 */
import { spawn } from 'node:child_process';
import process from 'node:process';

/** @type {Map<number, import('node:child_process').ChildProcessWithoutNullStreams>} */
const children = new Map();

/** @param {Record<string, unknown>} message */
function send(message) {
  if (process.connected) process.send?.(message);
}

/** @param {number} pid */
function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/**
 * @param {number} id
 * @param {string} command
 * @param {string[]} args
 */
function start(id, command, args) {
  const child = spawn(command, args, { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  child.once('error', (err) => {
    if (child.pid === undefined) {
      const code = /** @type {NodeJS.ErrnoException} */ (err).code;
      send({ op: 'spawn-error', id, code, message: err.message });
    }
  });
  if (child.pid === undefined) return;
  children.set(id, child);
  send({ op: 'spawned', id, pid: child.pid });
  // A solver may exit before reading all of its input: the exit status, not the pipe, says why.
  child.stdin.on('error', () => {});
  child.stdout.setEncoding('utf8').on('data', (data) => send({ op: 'stdout', id, data }));
  child.stderr.setEncoding('utf8').on('data', (data) => send({ op: 'stderr', id, data }));
  child.once('exit', () => send({ op: 'exit', id }));
  child.once('close', (code, signal) => {
    children.delete(id);
    send({ op: 'close', id, code, signal });
  });
}

process.on('message', (/** @type {any} */ message) => {
  const child = children.get(message.id);
  switch (message.op) {
    case 'spawn':
      start(message.id, message.command, message.args);
      break;
    case 'stdin':
      if (child === undefined || child.stdin.destroyed) send({ op: 'stdin-ack', id: message.id });
      else child.stdin.write(message.data, () => send({ op: 'stdin-ack', id: message.id }));
      break;
    case 'stdin-end':
      if (child !== undefined && !child.stdin.destroyed) child.stdin.end();
      break;
  }
});

process.on('disconnect', () => {
  for (const child of children.values()) if (child.pid !== undefined) killGroup(child.pid);
  process.exit(0);
});

send({ op: 'ready' });
