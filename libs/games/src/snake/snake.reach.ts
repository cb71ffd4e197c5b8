import { SnakeGrid, type SnakeInstance, startCells } from './snake.model.js';

/**
 * Where the head can possibly be at each step, ignoring every bite except into the initial body:
 * the head starts at its cell (any start cell for `start: any`), moves to a 4-neighbour that is no
 * wall each step, and may enter the cell of
 * `body[i]` only from step `length - i` on, when that cell has surely left the body (growth only
 * delays it). An over-approximation of the true positions, so cells outside it are fixed false in
 * the encoding and its first-arrival times are admissible distances.
 */
export class SnakeReach {
  readonly grid: SnakeGrid;
  private readonly layers: number[][];
  private readonly releaseStep: Int32Array;
  private readonly arrival: Int32Array;
  private settled = false;

  constructor(readonly instance: SnakeInstance) {
    this.grid = SnakeGrid.of(instance);
    this.releaseStep = new Int32Array(this.grid.size);
    instance.body.forEach((cell, i) => (this.releaseStep[this.grid.index(cell)] = instance.length - i));
    // A wall is never released.
    for (const cell of instance.walls ?? []) this.releaseStep[this.grid.index(cell)] = 0x7fffffff;
    this.arrival = new Int32Array(this.grid.size).fill(-1);
    const starts = startCells(instance, this.grid);
    for (const c of starts) this.arrival[c] = 0;
    this.layers = [starts];
  }

  /** The cells the head may occupy at step `t`, in increasing cell order. */
  cellsAt(t: number): readonly number[] {
    while (this.layers.length <= t) this.extend();
    return this.layers[t]!;
  }

  /**
   * The first step at which the head can be on `cell`, or `Infinity` when it never can (only when
   * the head cannot move at all, or the grid is a single cell).
   */
  firstArrival(cell: number): number {
    this.settle();
    const t = this.arrival[cell]!;
    return t < 0 ? Infinity : t;
  }

  private extend(): void {
    const t = this.layers.length;
    const previous = this.layers[t - 1]!;
    const next = new Uint8Array(this.grid.size);
    for (const c of previous)
      for (const n of this.grid.neighbours(c)) if (t >= this.releaseStep[n]!) next[n] = 1;
    const layer: number[] = [];
    for (let c = 0; c < this.grid.size; c++) {
      if (next[c] === 0) continue;
      layer.push(c);
      if (this.arrival[c]! < 0) this.arrival[c] = t;
    }
    this.layers.push(layer);
  }

  private settle(): void {
    if (this.settled) return;
    // Once every body cell is released (step `length`), the layers only depend on the layer two
    // steps before: a layer equal to that one repeats forever and no cell is new after it.
    for (let t = 2; ; t++) {
      const layer = this.cellsAt(t);
      if (layer.length === 0) break;
      const before = this.layers[t - 2]!;
      if (
        t - 2 >= this.instance.length &&
        layer.length === before.length &&
        layer.every((c, i) => c === before[i])
      )
        break;
    }
    this.settled = true;
  }
}

/**
 * Distances between cells for the lower bound and the encoder's distance clauses: Manhattan on a
 * grid without walls, else the breadth-first distance around the walls (Infinity between cells
 * the walls separate), both ignoring the snake, so no plan goes faster.
 */
export class SnakeDistances {
  private readonly walls: Uint8Array | undefined;
  private readonly from = new Map<number, Int32Array>();

  constructor(
    readonly grid: SnakeGrid,
    instance: Pick<SnakeInstance, 'walls'>,
  ) {
    if (instance.walls !== undefined && instance.walls.length > 0) {
      this.walls = new Uint8Array(grid.size);
      for (const c of instance.walls) this.walls[grid.index(c)] = 1;
    }
  }

  between(a: number, b: number): number {
    if (this.walls === undefined) return this.grid.manhattan(a, b);
    const d = this.table(a)[b]!;
    return d < 0 ? Infinity : d;
  }

  private table(source: number): Int32Array {
    let dist = this.from.get(source);
    if (dist !== undefined) return dist;
    dist = new Int32Array(this.grid.size).fill(-1);
    dist[source] = 0;
    const queue = [source];
    for (let i = 0; i < queue.length; i++) {
      const c = queue[i]!;
      for (const n of this.grid.neighbours(c)) {
        if (dist[n]! >= 0 || this.walls![n] === 1) continue;
        dist[n] = dist[c]! + 1;
        queue.push(n);
      }
    }
    this.from.set(source, dist);
    return dist;
  }
}
