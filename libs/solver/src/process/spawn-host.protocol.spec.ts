import { describe, expect, it } from 'vitest';

import { encodeOwnerFrame, HostFrameDecoder } from './spawn-host.protocol.js';

/** A host frame as the native host writes it. */
function hostFrame(op: number, id: number, payload: Buffer): Buffer {
  const header = Buffer.alloc(9);
  header.writeUInt32LE(payload.length, 0);
  header.writeUInt8(op, 4);
  header.writeUInt32LE(id, 5);
  return Buffer.concat([header, payload]);
}

const int32s = (...values: number[]): Buffer => {
  const b = Buffer.alloc(4 * values.length);
  values.forEach((v, i) => b.writeInt32LE(v, 4 * i));
  return b;
};

describe(HostFrameDecoder.name, () => {
  const stream = Buffer.concat([
    hostFrame(1, 0, Buffer.alloc(0)),
    hostFrame(2, 7, int32s(4242)),
    hostFrame(5, 7, Buffer.from('s SATISFIABLE\nv 1 -2 0\n')),
    hostFrame(3, 8, Buffer.from('ENOENT\0No such file or directory')),
    hostFrame(8, 7, int32s(10, 0, 204_800, 1_500)),
    hostFrame(8, 9, int32s(-1, 9, 0, 0)),
  ]);
  const expected = [
    { op: 'ready', id: 0 },
    { op: 'spawned', id: 7, pid: 4242 },
    { op: 'stdout', id: 7, data: Buffer.from('s SATISFIABLE\nv 1 -2 0\n') },
    { op: 'spawn-error', id: 8, code: 'ENOENT', message: 'No such file or directory' },
    { op: 'close', id: 7, code: 10, signal: null, usage: { peakRssKiB: 204_800, cpuMs: 1_500 } },
    { op: 'close', id: 9, code: null, signal: 'SIGKILL', usage: { peakRssKiB: 0, cpuMs: 0 } },
  ];

  it('decodes every message of the host, exit codes and signals by name, and the usage of a closed process', () => {
    expect(new HostFrameDecoder().push(stream)).toEqual(expected);
  });

  it('decodes the same messages however the pipe splits the stream', () => {
    for (const size of [1, 2, 5, 9, 10, 13, 64]) {
      const decoder = new HostFrameDecoder();
      const got = [];
      for (let at = 0; at < stream.length; at += size)
        got.push(...decoder.push(stream.subarray(at, at + size)));
      expect(got, `pieces of ${size} bytes`).toEqual(expected);
    }
  });

  it('refuses an op it does not know', () => {
    expect(() => new HostFrameDecoder().push(hostFrame(99, 1, Buffer.alloc(0)))).toThrow(/unknown op 99/);
  });
});

describe(encodeOwnerFrame.name, () => {
  it('sends argv as a count and NUL-terminated strings after a length, op and id header', () => {
    const frame = encodeOwnerFrame({ op: 'spawn', id: 3, command: 'kissat', args: ['-q', 'ü'] });
    expect(frame.readUInt32LE(0)).toBe(frame.length - 9);
    expect(frame.readUInt8(4)).toBe(1);
    expect(frame.readUInt32LE(5)).toBe(3);
    expect(frame.readUInt32LE(9)).toBe(3);
    expect(frame.subarray(13).toString('utf8')).toBe('kissat\0-q\0ü\0');
    const withInput = encodeOwnerFrame({
      op: 'spawn',
      id: 4,
      command: 'kissat',
      args: [],
      input: 'p cnf 0 0\n',
    });
    expect(withInput.readUInt8(4)).toBe(4);
    expect(withInput.readUInt32LE(9)).toBe(1);
    expect(withInput.subarray(13).toString('utf8')).toBe('kissat\0p cnf 0 0\n');
    expect(encodeOwnerFrame({ op: 'stdin', id: 3, data: 'p cnf 1 1\n' }).subarray(9).toString()).toBe(
      'p cnf 1 1\n',
    );
    expect(encodeOwnerFrame({ op: 'stdin-end', id: 3 }).length).toBe(9);
  });

  it('refuses an argument with a NUL byte, which exec could not receive', () => {
    expect(() => encodeOwnerFrame({ op: 'spawn', id: 1, command: 'kissat', args: ['a\0b'] })).toThrow(
      /NUL byte/,
    );
  });
});
