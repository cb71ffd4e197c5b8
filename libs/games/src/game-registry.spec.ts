import { describe, expect, it } from 'vitest';

import { availableGames, gameById } from './game-registry.js';
import { InputError } from './input-error.js';

describe('gameById', () => {
  it('finds every available game by its id', () => {
    for (const id of availableGames()) expect(gameById(id).id).toBe(id);
  });

  it.each(['chess', '__proto__', 'constructor', 'toString', 'hasOwnProperty', ''])(
    "refuses '%s' with an InputError naming the field",
    (name) => {
      let error: unknown;
      try {
        gameById(name, 'jobs[2].game');
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe('jobs[2].game');
      expect((error as InputError).reason).toMatch(/^unknown game/);
    },
  );
});
