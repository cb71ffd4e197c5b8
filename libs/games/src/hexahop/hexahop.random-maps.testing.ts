import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

/** A seeded source of integers in [0, n): the same seed draws the same random maps in the specs. */
export function seededInts(seed: number): (n: number) => number {
  const rng = xoroshiro128plus(seed);
  return (n) => unsafeUniformIntDistribution(0, n - 1, rng);
}
