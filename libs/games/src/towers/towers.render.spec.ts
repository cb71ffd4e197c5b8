import { describe, expect, it } from 'vitest';

import { parseTowersInstance } from './towers.parse.js';
import { renderTowers, towersText } from './towers.render.js';

// A 3x3: clues per side (0: none), one given (2 at row 1, column 0).
const instance = parseTowersInstance({
  n: 3,
  top: [0, 2, 0],
  bottom: [0, 0, 3],
  left: [1, 0, 0],
  right: [0, 0, 2],
  givens: [[1, 0, 2]],
});

describe(towersText.name, () => {
  it('puts each clue beside its row or over its column, blank where there is none', () => {
    const grid = [
      [3, 1, 2],
      [2, 3, 1],
      [1, 2, 3],
    ];
    expect(towersText(renderTowers(instance, { grid }))).toBe(
      ['    2', '1 3 1 2', '  2 3 1', '  1 2 3 2', '      3'].join('\n'),
    );
  });

  it('shows the givens and dots before a solution, and leaves out a side without clues', () => {
    const bare = parseTowersInstance({ n: 2, left: [2, 1], givens: [[0, 0, 1]] });
    expect(towersText(renderTowers(bare, undefined))).toBe(['2 1 .', '1 . .'].join('\n'));
  });
});
