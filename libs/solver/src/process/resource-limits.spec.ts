import { describe, expect, it } from 'vitest';

import { dieWithParent, limitedCommand, validateLimits } from './resource-limits.js';

describe(limitedCommand.name, () => {
  it('runs the binary itself when no limit is set', () => {
    expect(limitedCommand('kissat', ['--sat'], {})).toEqual({ command: 'kissat', args: ['--sat'] });
  });

  it('wraps the binary in prlimit with a soft and a hard CPU limit and an address-space limit', () => {
    expect(limitedCommand('/usr/bin/kissat', ['-q'], { cpuSeconds: 9.2, memoryMiB: 512 })).toEqual({
      command: 'prlimit',
      args: ['--cpu=10:11', `--as=${512 * 1024 * 1024}`, '--', '/usr/bin/kissat', '-q'],
    });
  });
});

describe(validateLimits.name, () => {
  it.each([0, -1, Number.NaN, Number.POSITIVE_INFINITY])('rejects %s', (value) => {
    expect(() => validateLimits({ cpuSeconds: value })).toThrow(/cpuSeconds must be a positive number/);
    expect(() => validateLimits({ memoryMiB: value })).toThrow(/memoryMiB must be a positive number/);
  });

  it('accepts positive limits and absent ones', () => {
    expect(() => validateLimits({ cpuSeconds: 0.5, memoryMiB: undefined })).not.toThrow();
  });
});

describe(dieWithParent.name, () => {
  it('runs the command under setpriv with a parent-death SIGKILL', () => {
    expect(dieWithParent({ command: 'kissat', args: ['-q'] })).toEqual({
      command: '/usr/bin/setpriv',
      args: ['--pdeathsig', 'KILL', '--', 'kissat', '-q'],
    });
  });
});
