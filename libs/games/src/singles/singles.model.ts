/** A cell as `[row, col]`, 0-based. */
export type SinglesCell = [row: number, col: number];

/**
 * A Singles (Hitori) puzzle: a grid of numbers, `grid[r][c]` at row r, column c. Shade cells so
 * that no number repeats among the unshaded cells of a row or column, no two shaded cells share an
 * edge, and the unshaded cells form one edge-connected region.
 */
export interface SinglesInstance {
  width: number;
  height: number;
  grid: number[][];
}

/** The shaded cells, in row-major order. */
export interface SinglesSolution {
  black: SinglesCell[];
}

/** The edge-neighbours of `[r, c]` inside a width x height grid. */
export function singlesNeighbours(width: number, height: number, r: number, c: number): SinglesCell[] {
  const out: SinglesCell[] = [];
  if (r > 0) out.push([r - 1, c]);
  if (r < height - 1) out.push([r + 1, c]);
  if (c > 0) out.push([r, c - 1]);
  if (c < width - 1) out.push([r, c + 1]);
  return out;
}

/**
 * The edge-connected regions of the cells where `isBlack` is false, each a list of cells, found
 * by flood fill. `isBlack` is indexed row-major (`r * width + c`).
 */
export function whiteRegions(width: number, height: number, isBlack: readonly boolean[]): SinglesCell[][] {
  const seen = new Uint8Array(width * height);
  const regions: SinglesCell[][] = [];
  for (let start = 0; start < width * height; start++) {
    if (isBlack[start] || seen[start]) continue;
    const region: SinglesCell[] = [];
    const stack = [start];
    seen[start] = 1;
    while (stack.length > 0) {
      const cell = stack.pop()!;
      const r = Math.floor(cell / width);
      const c = cell % width;
      region.push([r, c]);
      for (const [nr, nc] of singlesNeighbours(width, height, r, c)) {
        const next = nr * width + nc;
        if (!isBlack[next] && !seen[next]) {
          seen[next] = 1;
          stack.push(next);
        }
      }
    }
    regions.push(region);
  }
  return regions;
}
