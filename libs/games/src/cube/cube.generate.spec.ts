import { describe, expect, it } from 'vitest';

import { generateScramble } from './cube.generate.js';

const opposite: Record<string, string> = { U: 'D', D: 'U', R: 'L', L: 'R', F: 'B', B: 'F' };

describe(generateScramble.name, () => {
  it('is reproducible by seed and differs between seeds', () => {
    expect(generateScramble(3, 25, 7)).toEqual(generateScramble(3, 25, 7));
    expect(generateScramble(3, 25, 7)).not.toEqual(generateScramble(3, 25, 8));
  });

  it('never turns a face twice in a row or again after its opposite', () => {
    for (let seed = 0; seed < 50; seed++) {
      const moves = generateScramble(2, 30, seed);
      expect(moves).toHaveLength(30);
      for (let i = 1; i < moves.length; i++) {
        expect(moves[i]![0]).not.toBe(moves[i - 1]![0]);
        if (i >= 2 && opposite[moves[i - 1]![0]!] === moves[i]![0])
          expect(moves[i - 2]![0]).not.toBe(moves[i]![0]);
      }
    }
  });

  it('rejects a bad size or count, naming the option', () => {
    expect(() => generateScramble(4 as 3, 5, 1)).toThrow(expect.objectContaining({ field: 'size' }) as Error);
    expect(() => generateScramble(3, -1, 1)).toThrow(expect.objectContaining({ field: 'moves' }) as Error);
    // A count that would take the generator minutes and the solver's parser a huge scramble.
    expect(() => generateScramble(3, 1e9, 1)).toThrow(expect.objectContaining({ field: 'moves' }) as Error);
    expect(generateScramble(3, 10_000, 1)).toHaveLength(10_000);
  });
});
