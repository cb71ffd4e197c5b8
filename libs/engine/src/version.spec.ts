import { readFileSync } from 'node:fs';

import { describe, expect, it } from 'vitest';

import { SATFARM_VERSION } from './version.js';

describe('SATFARM_VERSION', () => {
  it("is package.json's version", () => {
    const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(SATFARM_VERSION).toBe(pkg.version);
  });
});
