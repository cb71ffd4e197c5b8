import { describe, expect, it } from 'vitest';

import { ApiKeys } from './api-keys.js';

describe(ApiKeys.name, () => {
  it('accepts everything when no key is configured', () => {
    const sut = new ApiKeys(undefined);
    expect(sut.required).toBe(false);
    expect(sut.accepts(undefined)).toBe(true);
  });

  it('accepts only the configured keys', () => {
    const sut = new ApiKeys(['0123456789abcdef', 'fedcba9876543210']);
    expect(sut.accepts('fedcba9876543210')).toBe(true);
    expect(sut.accepts('0123456789abcdeX')).toBe(false);
    expect(sut.accepts('0123')).toBe(false);
    expect(sut.accepts(undefined)).toBe(false);
  });

  it('reads a key from Bearer and Basic authorization headers', () => {
    expect(ApiKeys.fromHeader('Bearer abc')).toBe('abc');
    expect(ApiKeys.fromHeader(`Basic ${Buffer.from('ops:abc:def').toString('base64')}`)).toBe('abc:def');
    expect(ApiKeys.fromHeader('Token abc')).toBeUndefined();
    expect(ApiKeys.fromHeader(undefined)).toBeUndefined();
  });
});
