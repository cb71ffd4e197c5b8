import { describe, expect, it } from 'vitest';

import { describeRedisError } from './redis-connection.js';

describe(describeRedisError.name, () => {
  it('keeps only the system call and code of a socket error', () => {
    const err = Object.assign(new Error('connect ECONNREFUSED 10.1.2.3:6380'), {
      code: 'ECONNREFUSED',
      syscall: 'connect',
      address: '10.1.2.3',
      port: 6380,
    });
    expect(describeRedisError(err)).toBe('redis unreachable (connect ECONNREFUSED)');
  });

  it.each([
    ['Connection to redis://:s3cret@cache.internal:6380/2 failed', 'Connection to redis://<redacted> failed'],
    ['read ETIMEDOUT cache.internal:6379', 'read ETIMEDOUT <redis address>'],
    ['lost [::1]:6379', 'lost <redis address>'],
    [
      'WRONGPASS invalid username-password pair or user is disabled.',
      'WRONGPASS invalid username-password pair or user is disabled.',
    ],
  ])('removes URLs and addresses from %j', (message, expected) => {
    expect(describeRedisError(new Error(message))).toBe(expected);
  });
});
