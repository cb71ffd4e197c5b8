import { describe, expect, it } from 'vitest';

import { parseCubeInstance } from './cube.parse.js';
import { cubeText, renderCube } from './cube.render.js';

describe(cubeText.name, () => {
  it('draws the start as a net (U over F, L F R B across, D under) and lists the moves', () => {
    // One quarter turn of U from solved: the top rows of F, R, B, L move round by one face.
    const instance = parseCubeInstance({ size: 2, scramble: 'U' });
    expect(cubeText(renderCube(instance, { moves: ["U'"], metric: 'htm' }))).toBe(
      [
        '    U U',
        '    U U',
        'F F R R B B L L',
        'L L F F R R B B',
        '    D D',
        '    D D',
        "moves (1, htm): U'",
      ].join('\n'),
    );
  });
});
