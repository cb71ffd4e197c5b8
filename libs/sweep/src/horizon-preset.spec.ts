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
