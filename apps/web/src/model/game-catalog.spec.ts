import { describe, expect, it } from 'vitest';

import { instanceFromText } from './game-catalog';

describe(instanceFromText.name, () => {
  it('sends JSON as JSON, a cube scramble with its size, and other text as it is', () => {
    expect(instanceFromText('cube', ' {"size": 2, "scramble": "R U"} ', 3)).toEqual({
      size: 2,
      scramble: 'R U',
    });
    expect(instanceFromText('cube', "R U2 F'\n", 3)).toEqual({ size: 3, scramble: "R U2 F'" });
    expect(instanceFromText('towers', ' 4:1/2/3/4/1/2/3/4/1/2/3/4/1/2/3/4 ', 3)).toBe(
      '4:1/2/3/4/1/2/3/4/1/2/3/4/1/2/3/4',
    );
    expect(instanceFromText('cnf', 'p cnf 1 1\n1 0\n', 3)).toBe('p cnf 1 1\n1 0\n');
  });
});
