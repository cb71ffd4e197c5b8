// @ts-check
/*
 * The spawn host: a small Node program that starts solver processes on behalf of the process
 * that owns it, and relays their standard streams over the IPC channel.
 *
 * Why: Node's spawn() forks the calling process on the event loop's thread, and a fork costs
 * time in proportion to the caller's memory (page tables are copied): ~3 ms from a bare Node
 * process, 10 to 15 ms from a worker holding the farm's caches, during which nothing else of that
 * process runs. Forking from this small process instead keeps that cost off the owner's loop.
 *
 * Plain JavaScript so that it runs the same from the sources (tests) and from dist.
 *
 * Protocol (one object per message, ids chosen by the owner):
 *   owner -> host  {op: 'spawn', id, command, args} | {op: 'stdin', id, data} | {op: 'stdin-end', id}
 *   host -> owner  {op: 'ready'} | {op: 'spawned', id, pid} | {op: 'spawn-error', id, code, message}
 *                  | {op: 'stdin-ack', id} | {op: 'stdout', id, data} | {op: 'stderr', id, data}
 *                  | {op: 'exit', id} | {op: 'close', id, code, signal}
 * Signals go from the owner straight to the process group (same user); the host only spawns,
 * relays and reaps. When the owner goes away (the channel closes) every group is killed.
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
