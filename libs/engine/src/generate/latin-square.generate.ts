import { type RandomGenerator, unsafeUniformIntDistribution } from 'pure-rand';

/** Shuffles `items` in place (Fisher–Yates) with `rng`, and returns it. */
export function shuffleInPlace<T>(items: T[], rng: RandomGenerator): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = unsafeUniformIntDistribution(0, i, rng);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

/**
 * A random n x n Latin square over 1..n, built row by row: each row is a perfect matching of
 * columns to the symbols their column still lacks, found by augmenting paths tried in random
 * order. A Latin rectangle always extends by a row (Hall's theorem), so this never backtracks
 * across rows. Not uniform over all Latin squares, but every square has a chance.
 */
export function randomLatinSquare(n: number, rng: RandomGenerator): number[][] {
  if (!Number.isInteger(n) || n < 1)
    throw new RangeError(`Latin square size must be a positive integer, got ${n}`);
  const usedInColumn = Array.from({ length: n }, () => new Set<number>());
  const square: number[][] = [];
  for (let r = 0; r < n; r++) {
    const columnOfSymbol = new Array<number>(n + 1).fill(-1);
    const symbolOfColumn = new Array<number>(n).fill(0);
    const tryColumn = (c: number, visited: Set<number>): boolean => {
      const symbols = shuffleInPlace(
        Array.from({ length: n }, (_, i) => i + 1).filter((s) => !usedInColumn[c]!.has(s)),
        rng,
      );
      for (const s of symbols) {
        if (visited.has(s)) continue;
        visited.add(s);
        const holder = columnOfSymbol[s]!;
        if (holder === -1 || tryColumn(holder, visited)) {
          columnOfSymbol[s] = c;
          symbolOfColumn[c] = s;
          return true;
        }
      }
      return false;
    };
    for (const c of shuffleInPlace(
      Array.from({ length: n }, (_, i) => i),
      rng,
    )) {
      if (!tryColumn(c, new Set())) throw new Error(`no symbol fits column ${c} of row ${r}`);
    }
    symbolOfColumn.forEach((s, c) => usedInColumn[c]!.add(s));
    square.push(symbolOfColumn);
  }
  return square;
}
