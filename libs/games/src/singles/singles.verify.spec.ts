import { describe, expect, it } from 'vitest';

import type { SinglesCell } from './singles.model.js';
import { parseSinglesInstance } from './singles.parse.js';
import { verifySingles } from './singles.verify.js';

// 1 2 1
// 2 2 3
// 3 1 2
const instance = parseSinglesInstance('3x3:121223312');

describe(verifySingles.name, () => {
  it('accepts a shading that meets every rule', () => {
    expect(
      verifySingles(instance, {
        black: [
          [0, 2],
          [1, 1],
        ],
      }),
    ).toEqual({ ok: true });
  });

  it.each([
    ['a repeat in a row', [[1, 1]], /row 0 has 1 white/],
    [
      'a repeat in a column',
      [
        [0, 2],
        [1, 0],
      ],
      /column 1 has 2 white at rows 0 and 1/,
    ],
    [
      'touching black cells',
      [
        [0, 2],
        [1, 1],
        [1, 2],
      ],
      /touch/,
    ],

    ['a cell off the grid', [[3, 0]], /outside/],
    [
      'a cell listed twice',
      [
        [0, 2],
        [0, 2],
      ],
      /twice/,
    ],
  ])('rejects %s', (_what, black, reason) => {
    const verdict = verifySingles(instance, { black: black as SinglesCell[] });
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(reason);
  });

  it('rejects white cells cut in two by a diagonal of black cells', () => {
    const open = parseSinglesInstance({
      grid: [
        [1, 2, 3],
        [4, 5, 6],
        [7, 8, 9],
      ],
    });
    const verdict = verifySingles(open, {
      black: [
        [0, 2],
        [1, 1],
        [2, 0],
      ],
    });
    expect(verdict).toEqual({ ok: false, reason: 'the white cells form 2 separate regions' });
  });
});
