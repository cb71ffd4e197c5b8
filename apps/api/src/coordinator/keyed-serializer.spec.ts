import { describe, expect, it } from 'vitest';

import { KeyedSerializer } from './keyed-serializer.js';

describe(KeyedSerializer.name, () => {
  it('runs the tasks of one key in order, one at a time, even when one fails', async () => {
    const sut = new KeyedSerializer();
    const log: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = sut.run('job', async () => {
      log.push('first start');
      await gate;
      log.push('first end');
      throw new Error('boom');
    });
    const second = sut.run('job', () => {
      log.push('second');
      return Promise.resolve(2);
    });
    const other = sut.run('other', () => {
      log.push('other');
      return Promise.resolve(3);
    });
    await other;
    expect(log).toEqual(['first start', 'other']);
    release();
    await expect(first).rejects.toThrow('boom');
    expect(await second).toBe(2);
    expect(log).toEqual(['first start', 'other', 'first end', 'second']);
  });
});
