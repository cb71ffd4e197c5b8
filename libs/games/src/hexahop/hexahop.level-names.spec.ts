import { describe, expect, it } from 'vitest';

import { isWorldMap, readLevelFile } from './hexahop.level-file.js';
import { displayNameOf, LEVEL_DISPLAY_NAMES } from './hexahop.level-names.js';

describe(displayNameOf.name, () => {
  const levels = readLevelFile().filter((r) => !isWorldMap(r));

  it('knows a display name for every level of the installed file', () => {
    const missing = levels.filter((r) => displayNameOf(r.path) === undefined).map((r) => r.path);
    expect(missing).toEqual([]);
  });

  it('gives different levels different names, without stray spaces', () => {
    const names = Object.values(LEVEL_DISPLAY_NAMES);
    expect(new Set(names.map((n) => n.toLowerCase())).size).toBe(names.length);
    for (const n of names) expect(n).toBe(n.replace(/\s+/g, ' ').trim());
  });

  it('names the levels by the titles the game shows', () => {
    expect(displayNameOf('0_green\\asymmetrix.lev')).toBe('Orbital');
    expect(displayNameOf('1_trampoline\\01.lev')).toBe('Mini Island');
    expect(displayNameOf('2_greendoor\\test_green_gate.lev')).toBe('Green Walls');
    expect(displayNameOf('1_trampoline\\test_trampoline.lev')).toBe('Trampolines');
  });
});
