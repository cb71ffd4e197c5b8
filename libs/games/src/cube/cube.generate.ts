import { type RandomGenerator, unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

import { InputError } from '../input-error.js';
import { FACES } from './cube.facelets.js';
import { type CubeSize, type Move, moveName } from './cube.model.js';

const axisOf = (face: number): number => face % 3;

/** The longest scramble generated: far past any cube's diameter (20 face moves for the 3x3). */
export const MAX_SCRAMBLE_MOVES = 10_000;

/**
 * A random scramble of `moves` face moves (any of the 18) without trivial cancellations: no face
 * twice in a row, and no face again after a turn of its opposite face (`U D U`). The same seed
 * gives the same scramble. The size only names the cube the scramble is for: a 2x2 takes the
 * same 18 moves. Throws `InputError` naming `size` or `moves`.
 */
export function generateScramble(
  size: CubeSize,
  moves: number,
  seed: number | RandomGenerator = Date.now(),
): string[] {
  if (size !== 2 && size !== 3) throw new InputError('size', `must be 2 or 3, got ${String(size)}`);
  if (!Number.isInteger(moves) || moves < 0 || moves > MAX_SCRAMBLE_MOVES)
    throw new InputError('moves', `must be an integer in 0..${MAX_SCRAMBLE_MOVES}, got ${moves}`);
  const rng = typeof seed === 'number' ? xoroshiro128plus(seed) : seed;
  const out: Move[] = [];
  let last = -1;
  let beforeLast = -1;
  while (out.length < moves) {
    const face = unsafeUniformIntDistribution(0, 5, rng);
    if (face === last) continue;
    if (last >= 0 && beforeLast === face && axisOf(last) === axisOf(face)) continue;
    const turns = unsafeUniformIntDistribution(1, 3, rng) as 1 | 2 | 3;
    out.push({ face: FACES[face]!, turns });
    beforeLast = last;
    last = face;
  }
  return out.map(moveName);
}
