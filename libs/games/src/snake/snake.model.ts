/** A grid cell as `[x, y]`: x from 0 at the left, y from 0 at the top. */
export type Cell = [x: number, y: number];

/** `any`: every apple is present from the start; `given`: only the next apple of the list is. */
export type AppleOrder = 'any' | 'given';

/**
 * A Snake instance (docs/cli.md#instance-formats). The snake's body is the last `length` cells its
 * head visited; `body` is the initial part of that history, head first. A body shorter than
 * `length` (a head alone, say) grows out to `length` cells as the head moves.
 */
export interface SnakeInstance {
  width: number;
  height: number;
  /** Length at the start, head included; at least `body.length`. Grows by one per apple eaten. */
  length: number;
  /** The cells the snake covers at the start, head first; at least the head. */
  body: Cell[];
  apples: Cell[];
  order: AppleOrder;
  /**
   * The "survive" variant: no apples, and a plan is any legal walk of exactly this many steps.
   * Undefined for an apple hunt.
   */
  survive?: number;
}

/** A plan: the head's cells from step 0 to the step the last apple is eaten (or to `survive`). */
export interface SnakeSolution {
  path: Cell[];
}

/** The geometry of a W×H grid: cells are numbered `y * width + x`. */
export class SnakeGrid {
  readonly size: number;
  private readonly adjacent: number[][];

  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.size = width * height;
    this.adjacent = Array.from({ length: this.size }, (_, i) => {
      const [x, y] = this.cell(i);
      const out: number[] = [];
      if (x > 0) out.push(i - 1);
      if (x < width - 1) out.push(i + 1);
      if (y > 0) out.push(i - width);
      if (y < height - 1) out.push(i + width);
      return out;
    });
  }

  static of(instance: Pick<SnakeInstance, 'width' | 'height'>): SnakeGrid {
    return new SnakeGrid(instance.width, instance.height);
  }

  contains([x, y]: readonly number[]): boolean {
    return (
      Number.isInteger(x) && Number.isInteger(y) && x! >= 0 && y! >= 0 && x! < this.width && y! < this.height
    );
  }

  index([x, y]: readonly [number, number]): number {
    return y * this.width + x;
  }

  cell(i: number): Cell {
    return [i % this.width, Math.floor(i / this.width)];
  }

  /** The 4-neighbours of cell `i` inside the grid (no wrap-around). */
  neighbours(i: number): readonly number[] {
    return this.adjacent[i]!;
  }

  manhattan(a: number, b: number): number {
    return (
      Math.abs((a % this.width) - (b % this.width)) +
      Math.abs(Math.floor(a / this.width) - Math.floor(b / this.width))
    );
  }

  areNeighbours(a: number, b: number): boolean {
    return this.manhattan(a, b) === 1;
  }
}

/** What one step of the simulator did. */
export type StepOutcome = { ok: true; ate: number | undefined } | { ok: false; reason: string };

/**
 * The rules of Snake, one step at a time, on cell numbers of a {@link SnakeGrid}: the head moves to
 * a 4-neighbour inside the grid; eating an apple makes the snake one longer at once (the tail stays
 * that step); the head may enter the cell the tail leaves in the same step, but no other body cell.
 */
export class SnakeSimulator {
  readonly grid: SnakeGrid;
  private history: number[];
  private currentLength: number;
  private readonly eaten: boolean[];
  private eatenCount = 0;
  private stepCount = 0;
  private readonly appleCells: number[];
  /** The apple index lying on each cell, -1 for none. */
  private readonly appleAt: Int32Array;

  /**
   * The instance's start state. `grid` shares one grid between many simulators of the instance;
   * `from` copies another simulator's state instead (what `clone()` does).
   */
  constructor(
    readonly instance: SnakeInstance,
    grid?: SnakeGrid,
    from?: SnakeSimulator,
  ) {
    this.grid = from?.grid ?? grid ?? SnakeGrid.of(instance);
    if (from !== undefined) {
      this.history = [...from.history];
      this.currentLength = from.currentLength;
      this.appleCells = from.appleCells;
      this.appleAt = from.appleAt;
      this.eaten = [...from.eaten];
      this.eatenCount = from.eatenCount;
      this.stepCount = from.stepCount;
      return;
    }
    this.history = instance.body.map((c) => this.grid.index(c)).reverse();
    this.currentLength = instance.length;
    this.appleCells = instance.apples.map((c) => this.grid.index(c));
    this.appleAt = new Int32Array(this.grid.size).fill(-1);
    this.appleCells.forEach((c, a) => (this.appleAt[c] = a));
    this.eaten = instance.apples.map(() => false);
  }

  /** The head's cell number. */
  get head(): number {
    return this.history[this.history.length - 1]!;
  }

  get length(): number {
    return this.currentLength;
  }

  get steps(): number {
    return this.stepCount;
  }

  get applesEaten(): number {
    return this.eatenCount;
  }

  /** Cell numbers of the body, head first. */
  body(): number[] {
    return this.history.slice(-this.currentLength).reverse();
  }

  /** Indices (into `instance.apples`) of the apples on the board now. */
  presentApples(): number[] {
    if (this.instance.order === 'given')
      return this.eatenCount < this.appleCells.length ? [this.eatenCount] : [];
    return this.appleCells.flatMap((_, a) => (this.eaten[a] ? [] : [a]));
  }

  /** Every apple eaten (apple hunt), or `survive` steps made (survive variant). */
  isDone(): boolean {
    if (this.instance.survive !== undefined) return this.stepCount >= this.instance.survive;
    return this.eatenCount === this.appleCells.length;
  }

  /** Whether the head may move to cell `target` now, and why not. */
  check(target: number): StepOutcome {
    if (!this.grid.areNeighbours(this.head, target))
      return { ok: false, reason: 'not a move to a 4-neighbour' };
    const apple = this.appleAt[target]!;
    const present =
      apple >= 0 && (this.instance.order === 'given' ? apple === this.eatenCount : !this.eaten[apple]);
    const ate = present ? apple : undefined;
    // The cells that stay in the body: the last length-1 head cells, or length with an apple.
    const staying = this.currentLength - (present ? 0 : 1);
    for (let i = this.history.length - 1; i >= Math.max(0, this.history.length - staying); i--) {
      if (this.history[i] === target) return { ok: false, reason: 'the head bites the body' };
    }
    return { ok: true, ate };
  }

  /** Moves the head to cell `target` if the rules allow it; the state is unchanged otherwise. */
  move(target: number): StepOutcome {
    const outcome = this.check(target);
    if (!outcome.ok) return outcome;
    if (outcome.ate !== undefined) {
      this.eaten[outcome.ate] = true;
      this.eatenCount++;
      this.currentLength++;
    }
    this.history.push(target);
    if (this.history.length > this.currentLength) this.history = this.history.slice(-this.currentLength);
    this.stepCount++;
    return outcome;
  }

  /** The cells the head may move to now. */
  legalMoves(): number[] {
    return this.grid.neighbours(this.head).filter((n) => this.check(n).ok);
  }

  /** A copy that moves independently. */
  clone(): SnakeSimulator {
    return new SnakeSimulator(this.instance, this.grid, this);
  }

  /** Identifies the state up to the step count: the covered cells in order and the apples left. */
  key(): string {
    const apples =
      this.instance.order === 'given' ? String(this.eatenCount) : this.eaten.map(Number).join('');
    return `${apples}|${this.currentLength}|${this.history.join(',')}`;
  }
}
