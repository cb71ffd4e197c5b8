import { constants } from 'node:os';

/** What the owner tells a spawn host. */
export type OwnerMessage =
  /** `input`: the whole of the process's standard input, which is closed after it. */
  | { op: 'spawn'; id: number; command: string; args: string[]; input?: string }
  | { op: 'stdin'; id: number; data: string }
  | { op: 'stdin-end'; id: number };

/** What a spawn host tells its owner. */
export interface HostMessage {
  op: 'ready' | 'spawned' | 'spawn-error' | 'stdin-ack' | 'stdout' | 'stderr' | 'exit' | 'close';
  id: number;
  pid?: number;
  code?: string | number | null;
  message?: string;
  data?: string | Buffer;
  signal?: NodeJS.Signals | null;
  /** On `close` from the native host: what the process used, from its reaping. */
  usage?: ProcessUsage;
}

/** What a solver process used, as the kernel counted it when the process was reaped. */
export interface ProcessUsage {
  /** Peak resident set size (ru_maxrss), KiB. */
  peakRssKiB: number;
  /** CPU time, user and system, ms. */
  cpuMs: number;
}

/*
 * The native host's frames (libs/solver/native/spawn-host.c has the protocol): a little-endian
 * header of u32 payload length, u8 op and u32 id, then the payload.
 */
const HEADER = 9;
const OWNER_OPS = { spawn: 1, stdin: 2, 'stdin-end': 3, 'spawn-with-input': 4 } as const;
const HOST_OPS: readonly HostMessage['op'][] = [
  'ready',
  'spawned',
  'spawn-error',
  'stdin-ack',
  'stdout',
  'stderr',
  'exit',
  'close',
];

const signalNames = new Map<number, NodeJS.Signals>(
  Object.entries(constants.signals).map(([name, number]) => [number, name as NodeJS.Signals]),
);

/** One frame for the native host. */
export function encodeOwnerFrame(message: OwnerMessage): Buffer {
  let payload: Buffer;
  let op: keyof typeof OWNER_OPS = message.op;
  switch (message.op) {
    case 'spawn': {
      // argv as NUL-terminated strings; a NUL inside one cannot reach exec, so it is refused here.
      const argv = [message.command, ...message.args];
      for (const part of argv) {
        if (part.includes('\0'))
          throw new TypeError(`a solver argument contains a NUL byte: ${JSON.stringify(part)}`);
      }
      const argc = Buffer.alloc(4);
      argc.writeUInt32LE(argv.length, 0);
      const strings = Buffer.from(argv.map((s) => `${s}\0`).join(''), 'utf8');
      if (message.input === undefined) {
        payload = Buffer.concat([argc, strings]);
      } else {
        payload = Buffer.concat([argc, strings, Buffer.from(message.input, 'utf8')]);
        op = 'spawn-with-input';
      }
      break;
    }
    case 'stdin':
      payload = Buffer.from(message.data, 'utf8');
      break;
    case 'stdin-end':
      payload = Buffer.alloc(0);
      break;
  }
  const frame = Buffer.allocUnsafe(HEADER + payload.length);
  frame.writeUInt32LE(payload.length, 0);
  frame.writeUInt8(OWNER_OPS[op], 4);
  frame.writeUInt32LE(message.id, 5);
  payload.copy(frame, HEADER);
  return frame;
}

/** Cuts the native host's output into messages, however the pipe splits it. */
export class HostFrameDecoder {
  private buffer: Buffer = Buffer.alloc(0);

  push(chunk: Buffer): HostMessage[] {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    const messages: HostMessage[] = [];
    let at = 0;
    while (this.buffer.length - at >= HEADER) {
      const length = this.buffer.readUInt32LE(at);
      if (this.buffer.length - at < HEADER + length) break;
      const opCode = this.buffer.readUInt8(at + 4);
      const id = this.buffer.readUInt32LE(at + 5);
      const payload = this.buffer.subarray(at + HEADER, at + HEADER + length);
      messages.push(decode(opCode, id, payload));
      at += HEADER + length;
    }
    // Keep only the unfinished frame (a copy, so the chunk it came in can be collected).
    this.buffer = at === this.buffer.length ? Buffer.alloc(0) : Buffer.from(this.buffer.subarray(at));
    return messages;
  }
}

function decode(opCode: number, id: number, payload: Buffer): HostMessage {
  const op = HOST_OPS[opCode - 1];
  if (op === undefined) throw new Error(`the native spawn host sent an unknown op ${opCode}`);
  switch (op) {
    case 'spawned':
      return { op, id, pid: payload.readUInt32LE(0) };
    case 'spawn-error': {
      const nul = payload.indexOf(0);
      const code = payload.toString('utf8', 0, nul);
      return { op, id, code, message: payload.toString('utf8', nul + 1) };
    }
    case 'stdout':
    case 'stderr':
      // A copy: the frame's buffer is reused for the rest of the chunk.
      return { op, id, data: Buffer.from(payload) };
    case 'close': {
      const code = payload.readInt32LE(0);
      const signal = payload.readInt32LE(4);
      const usage = { peakRssKiB: payload.readUInt32LE(8), cpuMs: payload.readUInt32LE(12) };
      return { op, id, code: code < 0 ? null : code, signal: signalNames.get(signal) ?? null, usage };
    }
    default:
      return { op, id };
  }
}
