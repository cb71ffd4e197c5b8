/** A grid cell as `[x, y]`: x from 0 at the left, y from 0 at the top. */
export type Cell = [x: number, y: number];

/** `any`: every apple is present from the start; `given`: only the next apple of the list is. */
export type AppleOrder = 'any' | 'given';

/**
 * `follows`: the head may enter the cell the tail leaves in the same step; `strict` (IPC-2018's
 * Snake): it may enter only a cell the snake did not cover before the step.
 */
export type TailRule = 'follows' | 'strict';

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
  /** The cells the snake covers at the start, head first; at least the head, none for `start: any`. */
  body: Cell[];
  /** `any`: the plan chooses the start cell (see {@link startCells}); `body` is then empty. */
  start?: 'any';
  apples: Cell[];
  order: AppleOrder;
  /** Cells the head never enters. */
  walls?: Cell[];
  /**
   * Order `any` only: each apple eaten while the chain has cells left puts an apple on the chain's
   * next cell (apples are a set of cells: one appearing on an apple adds nothing).
   */
  spawn?: Cell[];
  /** Default `follows`. */
  tail?: TailRule;
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

/** The instance with the snake placed on `cell` as a head alone (for `start: any`). */
export function startingAt(instance: SnakeInstance, cell: Cell): SnakeInstance {
  const { start: _free, ...fixed } = instance;
  return { ...fixed, body: [cell] };
}

/**
 * The cells the snake may start on, as cell numbers: the head's, or for `start: any` every cell
 * that is no wall and holds no apple at the start (every apple for order `any`, the first one
 * for `given`).
 */
export function startCells(instance: SnakeInstance, grid: SnakeGrid = SnakeGrid.of(instance)): number[] {
  if (instance.start !== 'any') return [grid.index(instance.body[0]!)];
  const taken = new Uint8Array(grid.size);
  for (const c of instance.walls ?? []) taken[grid.index(c)] = 1;
  const present = instance.order === 'given' ? instance.apples.slice(0, 1) : instance.apples;
  for (const c of present) taken[grid.index(c)] = 1;
  return Array.from({ length: grid.size }, (_, c) => c).filter((c) => taken[c] === 0);
}

/** The simulator at every start the instance allows (one, unless `start: any`). */
export function startStates(
  instance: SnakeInstance,
  grid: SnakeGrid = SnakeGrid.of(instance),
): SnakeSimulator[] {
  if (instance.start !== 'any') return [new SnakeSimulator(instance, grid)];
  return startCells(instance, grid).map((c) => new SnakeSimulator(startingAt(instance, grid.cell(c)), grid));
}

/** The cells that may ever hold an apple, shared by the simulators of one instance. */
interface AppleSites {
  /** Distinct cells of `apples` then `spawn`, in first-appearance order. */
  cells: number[];
  /** The site index of each cell, -1 for none. */
  at: Int32Array;
  /** The walls as a bitmap, or undefined without walls. */
  walls: Uint8Array | undefined;
  /** The spawn chain's sites, in chain order. */
  spawn: number[];
}

/**
 * The rules of Snake, one step at a time, on cell numbers of a {@link SnakeGrid}: the head moves to
 * a 4-neighbour inside the grid that is no wall; eating an apple makes the snake one longer at
 * once (the tail stays that step); the head may enter the cell the tail leaves in the same step
 * (tail `follows`; never with `strict`), but no other body cell. With `spawn`, each apple eaten
 * while the chain has cells left puts an apple on the next one, after the eaten apple is gone
 * (docs/games.md#snake). A `start: any` instance has no single start: see {@link startStates}.
 */
export class SnakeSimulator {
  readonly grid: SnakeGrid;
  private history: number[];
  private currentLength: number;
  private eatenCount = 0;
  private stepCount = 0;
  private readonly sites: AppleSites;
  /** Order `any`: 1 on each site holding an apple now. */
  private readonly has: Uint8Array;
  /** Order `any`: what put the apple on each site, as an index into `[...apples, ...spawn]`. */
  private readonly placedBy: Int32Array;
  private presentCount: number;
  private readonly strict: boolean;

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
    this.strict = instance.tail === 'strict';
    if (from !== undefined) {
      this.history = [...from.history];
      this.currentLength = from.currentLength;
      this.sites = from.sites;
      this.has = from.has.slice();
      this.placedBy = from.placedBy.slice();
      this.presentCount = from.presentCount;
      this.eatenCount = from.eatenCount;
      this.stepCount = from.stepCount;
      return;
    }
    if (instance.start === 'any' || instance.body.length === 0) {
      throw new Error('a snake instance with start "any" has no single start: use startStates()');
    }
    this.history = instance.body.map((c) => this.grid.index(c)).reverse();
    this.currentLength = instance.length;
    this.sites = appleSites(instance, this.grid);
    const visible = instance.order === 'given' ? 0 : instance.apples.length;
    this.has = new Uint8Array(this.sites.cells.length);
    this.placedBy = new Int32Array(this.sites.cells.length).fill(-1);
    for (let a = 0; a < visible; a++) {
      const site = this.sites.at[this.grid.index(instance.apples[a]!)]!;
      this.has[site] = 1;
      this.placedBy[site] = a;
    }
    this.presentCount = visible;
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

  /** Indices (into `instance.apples`) of the instance's own apples on the board now. */
  presentApples(): number[] {
    if (this.instance.order === 'given')
      return this.eatenCount < this.instance.apples.length ? [this.eatenCount] : [];
    return this.instance.apples.flatMap((c, a) => {
      const site = this.sites.at[this.grid.index(c)]!;
      return this.has[site] === 1 && this.placedBy[site] === a ? [a] : [];
    });
  }

  /** Cell numbers of every apple on the board now, spawned ones included. */
  presentCells(): number[] {
    if (this.instance.order === 'given')
      return this.presentApples().map((a) => this.grid.index(this.instance.apples[a]!));
    return this.sites.cells.filter((_, s) => this.has[s] === 1);
  }

  /** Cell numbers of the spawn chain's cells still to appear, next first. */
  pendingSpawn(): number[] {
    return this.sites.spawn.slice(this.eatenCount).map((s) => this.sites.cells[s]!);
  }

  /**
   * Every apple eaten, spawned ones included, and the whole spawn chain spawned (apple hunt), or
   * `survive` steps made (survive variant).
   */
  isDone(): boolean {
    if (this.instance.survive !== undefined) return this.stepCount >= this.instance.survive;
    if (this.instance.order === 'given') return this.eatenCount === this.instance.apples.length;
    return this.presentCount === 0 && this.eatenCount >= this.sites.spawn.length;
  }

  /** Whether the head may move to cell `target` now, and why not. */
  check(target: number): StepOutcome {
    if (!this.grid.areNeighbours(this.head, target))
      return { ok: false, reason: 'not a move to a 4-neighbour' };
    if (this.sites.walls?.[target] === 1) return { ok: false, reason: 'the head hits a wall' };
    const site = this.sites.at[target]!;
    let ate: number | undefined;
    if (site >= 0) {
      if (this.instance.order === 'given') ate = site === this.eatenCount ? site : undefined;
      else if (this.has[site] === 1) ate = this.placedBy[site];
    }
    // The cells that stay in the body: the last length-1 head cells, or length with an apple
    // (always length when the tail is strict: the head enters no cell covered before the step).
    const staying = this.currentLength - (ate !== undefined || this.strict ? 0 : 1);
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
      if (this.instance.order === 'any') {
        const site = this.sites.at[target]!;
        this.has[site] = 0;
        this.presentCount--;
        // The eaten apple is gone first: the next chain cell may be the one just entered.
        const next = this.sites.spawn[this.eatenCount];
        if (next !== undefined && this.has[next] === 0) {
          this.has[next] = 1;
          this.placedBy[next] = this.instance.apples.length + this.eatenCount;
          this.presentCount++;
        }
      }
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

  /**
   * Identifies the state up to the step count: the covered cells in order, the apples on the
   * board and how much of the spawn chain has appeared.
   */
  key(): string {
    const apples =
      this.instance.order === 'given'
        ? String(this.eatenCount)
        : this.has.join('') +
          (this.sites.spawn.length > 0 ? `/${Math.min(this.eatenCount, this.sites.spawn.length)}` : '');
    return `${apples}|${this.currentLength}|${this.history.join(',')}`;
  }
}

function appleSites(instance: SnakeInstance, grid: SnakeGrid): AppleSites {
  const at = new Int32Array(grid.size).fill(-1);
  const cells: number[] = [];
  const site = (cell: Cell): number => {
    const c = grid.index(cell);
    if (at[c]! < 0) {
      at[c] = cells.length;
      cells.push(c);
    }
    return at[c]!;
  };
  instance.apples.forEach(site);
  const spawn = (instance.spawn ?? []).map(site);
  let walls: Uint8Array | undefined;
  if (instance.walls !== undefined && instance.walls.length > 0) {
    walls = new Uint8Array(grid.size);
    for (const c of instance.walls) walls[grid.index(c)] = 1;
  }
  return { cells, at, walls, spawn };
}
