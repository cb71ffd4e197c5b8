import { unsafeUniformIntDistribution, xoroshiro128plus } from 'pure-rand';

/** A seeded source of integers in [0, n): the same seed draws the same random maps in the specs. */
export function seededInts(seed: number): (n: number) => number {
  const rng = xoroshiro128plus(seed);
  return (n) => unsafeUniformIntDistribution(0, n - 1, rng);
}

/**
 * A random map of `height` rows of `width` tiles drawn from `chars`, with a normal tile at a
 * random start, framed by water (which keeps spinners off the edge of the map). `inner` is the
 * map without the frame; `start` is in the framed map's coordinates.
 */
export function randomFramedMap(
  random: (n: number) => number,
  chars: string,
  width: number,
  height: number,
): { rows: string[]; inner: string[]; start: [number, number] } {
  const inner = Array.from({ length: height }, () =>
    Array.from({ length: width }, () => chars[random(chars.length)]).join(''),
  );
  const [sx, sy] = [random(width), random(height)];
  inner[sy] = `${inner[sy]!.slice(0, sx)}o${inner[sy]!.slice(sx + 1)}`;
  const rows = ['.'.repeat(width + 2), ...inner.map((r) => `.${r}.`), '.'.repeat(width + 2)];
  return { rows, inner, start: [sx + 1, sy + 1] };
}
