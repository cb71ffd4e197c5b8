import { describe, expect, it } from 'vitest';

import { horizonPreset } from './horizon-preset.js';

describe(horizonPreset.name, () => {
  it('runs the lowest open horizon with the UNSAT preset and every horizon above with the SAT preset', () => {
    expect(horizonPreset(5, 5)).toBe('unsat');
    expect(horizonPreset(4, 5)).toBe('unsat');
    expect(horizonPreset(6, 5)).toBe('sat');
    expect(horizonPreset(12, 5)).toBe('sat');
  });
});

describe(`${horizonPreset.name} with a horizon known SAT`, () => {
  it('runs the known SAT horizon and every one above it with the SAT preset, those below with UNSAT', () => {
    expect(horizonPreset(9, 9, 9)).toBe('sat');
    expect(horizonPreset(10, 9, 9)).toBe('sat');
    expect(horizonPreset(8, 9, 9)).toBe('unsat');
    expect(horizonPreset(9, 9, undefined)).toBe('unsat');
  });
});
