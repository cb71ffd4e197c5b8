import { describe, expect, it } from 'vitest';

import { renderSingles, singlesText } from './singles.render.js';

describe(singlesText.name, () => {
  it('shades the black cells with # and right-aligns numbers of two digits', () => {
    const instance = {
      width: 3,
      height: 2,
      grid: [
        [1, 10, 1],
        [2, 3, 10],
      ],
    };
    const view = renderSingles(instance, { black: [[0, 0]] });
    expect(singlesText(view)).toBe([' # 10  1', ' 2  3 10'].join('\n'));
  });
});
