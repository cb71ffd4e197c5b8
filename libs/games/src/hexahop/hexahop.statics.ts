import { chainBranches, type ChainOracle, isRaised, leftTile, TILE_COUNT } from './hexahop.board.js';
import { cellIndex, type Direction, DIRECTIONS, MAP_SIZE, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { Item, Tile } from './hexahop.model.js';

type Tri = boolean | 'unknown';

const CELLS = MAP_SIZE * MAP_SIZE;
const NEVER = Number.POSITIVE_INFINITY;
/** More cells than this that may hold land (of 900) means tiles may go almost anywhere. */
const MAX_LAND = 400;

/** A level's map: tile and item of every cell (index `x * 30 + y`) and the player's start. */
export interface HexahopMap {
  tiles: ArrayLike<number>;
  items: ArrayLike<number>;
  start: readonly [number, number];
}

const caches = new WeakMap<object, Map<string, HexahopStatics>>();

/**
 * The statics of `instance`, computed once per instance object (every horizon encodes the same
 * level); `timedReach` chooses the reach and `windowRadius` the window (see HexahopStatics).
 */
export function staticsOf(instance: HexahopMap, timedReach = false, windowRadius?: number): HexahopStatics {
  let cache = caches.get(instance);
  if (cache === undefined) caches.set(instance, (cache = new Map<string, HexahopStatics>()));
  const key = `${timedReach} ${windowRadius ?? '-'}`;
  let st = cache.get(key);
  if (st === undefined) cache.set(key, (st = new HexahopStatics(instance, timedReach, windowRadius)));
  return st;
}

/** The cells within `radius` steps of a cell that holds a tile at the start. */
export function windowAround(tiles: ArrayLike<number>, radius: number): Uint8Array {
  const inside = new Uint8Array(CELLS);
  let ring: number[] = [];
  for (let c = 0; c < CELLS; c++) {
    if (tiles[c] !== Tile.Water) {
      inside[c] = 1;
      ring.push(c);
    }
  }
  for (let r = 0; r < radius; r++) {
    const next: number[] = [];
    for (const c of ring) {
      for (const d of DIRECTIONS) {
        const n = stepFrom(c, d);
        if (n !== OFF_MAP && inside[n] === 0) {
          inside[n] = 1;
          next.push(n);
        }
      }
    }
    ring = next;
  }
  return inside;
}

/**
 * What can happen on a level, over-approximated without search: for every cell the tiles it may
 * hold and the earliest step by which it may hold each, and the moves the player may make
 * (every real move among them). A fixpoint of the rules: tiles change when left, when green or
 * blue walls come down, when a lift or de-iced ice is landed on, next to builders and spinners
 * the player can reach, under the beams of lasers, and where boats float. The encoding prunes its
 * variables with these sets and times; the redundant constraints use the distances.
 */
export class HexahopStatics {
  readonly start: number;
  /** Cells with an anti-ice item / a jump item at the start. */
  readonly antiItems: number[] = [];
  readonly jumpItems: number[] = [];
  readonly items: Uint8Array;
  /** earliest[c * TILE_COUNT + k]: the first step whose state may have tile k on cell c. */
  private readonly earliest = new Float64Array(CELLS * TILE_COUNT).fill(NEVER);
  private arrival = new Map<number, number>();
  /** First step at which a move may land on the cell, even if it carries the player on. */
  private landing = new Map<number, number>();
  private successors = new Map<number, number[]>();
  private predecessors: Map<number, number[]> | undefined;
  /** Cells a laser beam (or an exploding laser next to them) may destroy. */
  readonly laserHit = new Set<number>();
  /** Cells next to a spinner the player may land on. */
  readonly spun = new Set<number>();
  /** Cells next to a builder the player may land on. */
  readonly built = new Set<number>();
  /** Cells a boat may leave or float to. */
  readonly boated = new Set<number>();
  /**
   * Set when tiles may spread over much of the map (spinners turning each other across the water):
   * the analysis stops there, and the encoding follows such a level inside a window instead.
   */
  unbounded = false;
  /**
   * Set (with `unbounded`) when the player may land on a spinner next to another. Only a
   * spinner's turn puts a spinner on a cell, and a turn moves only its six neighbours: so spinners
   * that start apart never move, while two side by side roll each other, the player riding them,
   * across the water anywhere on the map. The analysis stops there rather than spread the tiles
   * out to its cut, which would take seconds.
   */
  rollingSpinners = false;
  /**
   * With a window (cells near the level's tiles): tiles are followed only inside it, and no move
   * ends outside it. What this says then holds up to the first step that would put a tile (or the
   * player, on a boat) outside, which the encoding makes a step out of the window.
   */
  readonly window: Uint8Array | undefined;

  /**
   * @param timedReach moves of step t go over the tiles cells may hold by step t - 1, not over
   * every tile they may ever hold: tighter where tiles come late (built, floated, turned in).
   * @param windowRadius follow the tiles only within this many steps of the level's tiles (for
   * levels whose tiles may otherwise spread over the map: never `unbounded` then).
   */
  constructor(
    instance: HexahopMap,
    private readonly timedReach = false,
    windowRadius?: number,
  ) {
    this.window = windowRadius === undefined ? undefined : windowAround(instance.tiles, windowRadius);
    this.start = cellIndex(instance.start[0], instance.start[1]);
    this.items = Uint8Array.from(instance.items);
    for (let c = 0; c < CELLS; c++) {
      this.earliest[c * TILE_COUNT + instance.tiles[c]!] = 0;
      if (instance.items[c] === Item.AntiIce) this.antiItems.push(c);
      if (instance.items[c] === Item.Jump) this.jumpItems.push(c);
    }
    for (let round = 0; round < 100; round++) {
      const before = this.signature();
      this.computeReach();
      this.relax();
      if (this.unbounded) return;
      if (this.signature() === before) return;
    }
    throw new Error('the static analysis of the level does not settle');
  }

  /** Whether the statics follow `cell` (every cell on the map without a window). */
  inWindow(cell: number): boolean {
    return cell !== OFF_MAP && (this.window === undefined || this.window[cell] === 1);
  }

  /** The first step whose state may have `tile` on `cell` (Infinity: never). */
  earliestOf(cell: number, tile: number): number {
    return cell === OFF_MAP ? (tile === Tile.Water ? 0 : NEVER) : this.earliest[cell * TILE_COUNT + tile]!;
  }

  /** The tiles `cell` may ever hold, ascending. */
  kinds(cell: number): number[] {
    return this.kindsBy(cell, NEVER);
  }

  /** The tiles `cell` may hold in the state after step t, ascending. */
  kindsBy(cell: number, t: number): number[] {
    if (cell === OFF_MAP) return [Tile.Water];
    const out: number[] = [];
    for (let k = 0; k < TILE_COUNT; k++) {
      const e = this.earliest[cell * TILE_COUNT + k]!;
      if (e < NEVER && e <= t) out.push(k);
    }
    return out;
  }

  /** Whether `cell` may hold `tile` at some point. */
  may(cell: number, tile: number): boolean {
    return this.earliestOf(cell, tile) < NEVER;
  }

  /** Cells that may ever hold `tile`. */
  cellsThatMayHold(tile: number): number[] {
    const out: number[] = [];
    for (let c = 0; c < CELLS; c++) if (this.earliest[c * TILE_COUNT + tile]! < NEVER) out.push(c);
    return out;
  }

  /** Fewest moves to first stand on `cell` (Infinity when never). */
  firstArrival(cell: number): number {
    return this.arrival.get(cell) ?? NEVER;
  }

  /**
   * Fewest moves to first land on `cell` (Infinity when never): standing there, or carried on by a
   * trampoline, ice or a boat (items there are taken, a boat there floats away).
   */
  firstLanding(cell: number): number {
    return this.landing.get(cell) ?? NEVER;
  }

  /** The cells the player may stand on by step t. */
  cellsBy(t: number): number[] {
    const out: number[] = [];
    for (const [c, a] of this.arrival) if (a <= t) out.push(c);
    return out.sort((a, b) => a - b);
  }

  /** Fewest moves from `from` to every cell reachable from it. */
  distancesFrom(from: number): Map<number, number> {
    const dist = new Map<number, number>([[from, 0]]);
    const queue = [from];
    for (let i = 0; i < queue.length; i++) {
      const c = queue[i]!;
      for (const n of this.next(c)) {
        if (!dist.has(n)) {
          dist.set(n, dist.get(c)! + 1);
          queue.push(n);
        }
      }
    }
    return dist;
  }

  /** The cells one move before `cell`. */
  previous(cell: number): number[] {
    if (this.predecessors === undefined) {
      this.predecessors = new Map();
      for (const c of this.arrival.keys()) {
        for (const n of this.next(c)) {
          let list = this.predecessors.get(n);
          if (list === undefined) this.predecessors.set(n, (list = []));
          list.push(c);
        }
      }
    }
    return this.predecessors.get(cell) ?? [];
  }

  /** The cells one move from `cell`. */
  next(cell: number): number[] {
    return this.successors.get(cell) ?? [];
  }

  private signature(): string {
    let s = '';
    for (const [c, a] of [...this.arrival].sort((x, y) => x[0] - y[0])) s += `${c}:${a},`;
    for (const [c, a] of [...this.landing].sort((x, y) => x[0] - y[0])) s += `${c}/${a},`;
    return `${s}|${Array.from(this.earliest).join(',')}`;
  }

  private oracle(by = NEVER): ChainOracle<Tri> {
    const tri = (cell: number, test: (k: number) => boolean): Tri => {
      const ks = this.kindsBy(cell, by);
      const yes = ks.filter(test).length;
      return yes === 0 ? false : yes === ks.length ? true : 'unknown';
    };
    return {
      kinds: (c) => this.kindsBy(c, by),
      is: (c, k) => (this.kindsBy(c, by).length === 1 ? this.kindsBy(c, by)[0] === k : 'unknown'),
      raised: (c) => tri(c, isRaised),
      water: (c) => tri(c, (k) => k === Tile.Water),
      antiIce: () => (this.antiItems.length === 0 ? false : 'unknown'),
      not: (x) => (x === 'unknown' ? x : !x),
      never: (x) => x === false,
      always: (x) => x === true,
      // Only the ends and the cells landed on count here, and anti-ice is 'unknown' on every path.
      enterOnce: true,
    };
  }

  /** The over-approximate moves with the current tile sets, and the first arrivals. */
  private computeReach(): void {
    if (this.timedReach) {
      this.computeTimedReach();
      return;
    }
    const oracle = this.oracle();
    this.successors = new Map();
    this.predecessors = undefined;
    const arrival = new Map<number, number>([[this.start, 0]]);
    const landing = new Map<number, number>([[this.start, 0]]);
    const queue = [this.start];
    for (let i = 0; i < queue.length; i++) {
      const c = queue[i]!;
      const out = new Set<number>();
      this.movesFrom(c, oracle, (end, path) => {
        out.add(end);
        for (const x of path) landing.set(x, Math.min(landing.get(x) ?? NEVER, arrival.get(c)! + 1));
      });
      const list = [...out].sort((a, b) => a - b);
      this.successors.set(c, list);
      for (const n of list) {
        if (!arrival.has(n)) {
          arrival.set(n, arrival.get(c)! + 1);
          queue.push(n);
        }
      }
    }
    this.arrival = arrival;
    this.landing = landing;
  }

  /**
   * The moves out of `c` over the tiles `oracle` allows: `take(end, path)` per landing branch
   * that does not end in death.
   */
  private movesFrom(c: number, oracle: ChainOracle<Tri>, take: (end: number, path: number[]) => void): void {
    const kinds = oracle.kinds(c);
    const branch = (q: number, d: Direction | undefined, high: boolean): void => {
      for (const b of chainBranches(q, d, high, oracle)) {
        if (b.end !== 'death' && this.inWindow(b.end)) take(b.end, b.path);
      }
    };
    for (const high of [true, false]) {
      if (!kinds.some((k) => isRaised(k) === high)) continue;
      for (const d of DIRECTIONS) {
        const q = stepFrom(c, d);
        if (oracle.water(q) === true) continue;
        if (!high && oracle.raised(q) === true) continue;
        branch(q, d, high);
      }
      if (this.jumpItems.length > 0) branch(c, undefined, high);
    }
  }

  /**
   * Reach step by step, each move of step t over the tiles cells may hold by step t - 1. Only the
   * cell left changes between that state and the move (and the walls, whose lowered tiles count
   * from the walls' own first step), and no move's chain lands on the cell it left but a jump in
   * place, whose landing this may only over-approximate.
   */
  private computeTimedReach(): void {
    this.successors = new Map();
    this.predecessors = undefined;
    const arrival = new Map<number, number>([[this.start, 0]]);
    const landing = new Map<number, number>([[this.start, 0]]);
    const out = new Map<number, Set<number>>();
    let last = 0;
    for (let c = 0; c < CELLS; c++) {
      for (let k = 0; k < TILE_COUNT; k++) {
        const e = this.earliest[c * TILE_COUNT + k]!;
        if (e < NEVER) last = Math.max(last, e);
      }
    }
    for (let t = 1; ; t++) {
      const oracle = this.oracle(t - 1);
      const before = arrival.size;
      for (const c of [...arrival.keys()]) {
        let set = out.get(c);
        if (set === undefined) out.set(c, (set = new Set()));
        this.movesFrom(c, oracle, (end, path) => {
          set.add(end);
          if (!arrival.has(end)) arrival.set(end, t);
          for (const x of path) if (!landing.has(x)) landing.set(x, t);
        });
      }
      if (arrival.size === before && t > last) break;
    }
    for (const [c, set] of out)
      this.successors.set(
        c,
        [...set].sort((a, b) => a - b),
      );
    this.arrival = arrival;
    this.landing = landing;
  }

  private lower(cell: number, tile: number, step: number): boolean {
    if (cell === OFF_MAP || (tile !== Tile.Water && !this.inWindow(cell))) return false;
    const i = cell * TILE_COUNT + tile;
    if (step < this.earliest[i]!) {
      this.earliest[i] = step;
      return true;
    }
    return false;
  }

  /** Applies the rules until no earliest step drops. */
  private relax(): void {
    for (let sweep = 0; sweep < 10_000; sweep++) {
      let changed = false;
      const shots: [laser: number, at: number][] = [];
      for (let c = 0; c < CELLS; c++) {
        const a = this.firstArrival(c);
        const l = this.firstLanding(c);
        for (let k = 0; k < TILE_COUNT; k++) {
          const v = this.earliest[c * TILE_COUNT + k]!;
          if (v === NEVER) continue;
          const landed = Math.max(a, v);
          if (k === Tile.Boat && l < NEVER) changed = this.relaxBoat(c, Math.max(l, v)) || changed;
          // Left by the player standing on it; walls come down at a board check.
          if (a < NEVER && leftTile(k) !== k) changed = this.lower(c, leftTile(k), landed + 1) || changed;
          if (k === Tile.GreenWall) changed = this.lower(c, Tile.Green, v) || changed;
          if (k === Tile.BlueWall) changed = this.lower(c, Tile.Blue, v) || changed;
          if (a === NEVER) continue;
          switch (k) {
            case Tile.LiftDown:
            case Tile.LiftUp:
              changed = this.lower(c, k === Tile.LiftUp ? Tile.LiftDown : Tile.LiftUp, landed) || changed;
              break;
            case Tile.Ice:
              if (this.antiItems.length > 0) changed = this.lower(c, Tile.DeIced, landed) || changed;
              break;
            case Tile.Builder:
              changed = this.relaxBuilder(c, landed) || changed;
              break;
            case Tile.Spinner:
              if (!this.window && DIRECTIONS.some((d) => this.may(stepFrom(c, d), Tile.Spinner))) {
                this.rollingSpinners = this.unbounded = true;
                return;
              }
              changed = this.relaxSpinner(c, landed) || changed;
              break;
            case Tile.Laser:
              shots.push([c, landed]);
              break;
          }
        }
      }
      changed = this.relaxShots(shots) || changed;
      if (!changed) return;
      if (!this.window && this.landCells() > MAX_LAND) {
        this.unbounded = true;
        return;
      }
    }
  }

  /** The number of cells that may hold something other than water. */
  private landCells(): number {
    let n = 0;
    for (let c = 0; c < CELLS; c++) {
      for (let k = 1; k < TILE_COUNT; k++) {
        if (this.earliest[c * TILE_COUNT + k]! < NEVER) {
          n++;
          break;
        }
      }
    }
    return n;
  }

  private relaxBuilder(s: number, at: number): boolean {
    let changed = false;
    for (const d of DIRECTIONS) {
      const n = stepFrom(s, d);
      if (n === OFF_MAP) continue;
      this.built.add(n);
      const w = this.earliestOf(n, Tile.Water);
      const g = this.earliestOf(n, Tile.Green);
      if (w < NEVER) changed = this.lower(n, Tile.Green, Math.max(at, w)) || changed;
      if (g < NEVER) changed = this.lower(n, Tile.GreenWall, Math.max(at, g)) || changed;
    }
    return changed;
  }

  private relaxSpinner(s: number, at: number): boolean {
    let changed = false;
    for (const d of DIRECTIONS) {
      const n = stepFrom(s, d);
      if (n === OFF_MAP) continue;
      this.spun.add(n);
      const from = stepFrom(s, ((d + 5) % 6) as Direction);
      for (let k = 0; k < TILE_COUNT; k++) {
        const v = this.earliestOf(from, k);
        if (v < NEVER) changed = this.lower(n, k, Math.max(at, v)) || changed;
      }
    }
    return changed;
  }

  /**
   * What the shots of lasers (cell, first step it may fire) may destroy: a hit cell (not ice, which
   * splits the beam) and the neighbours of a hit laser become water from the shot's step. Beams
   * do not depend on which laser sent them, so the shots flood the beam states together, earliest
   * first: a state an earlier shot reached has nothing later to lower.
   */
  private relaxShots(shots: [laser: number, at: number][]): boolean {
    let changed = false;
    const seen = new Uint8Array(CELLS * 6);
    const hit = new Uint8Array(CELLS);
    for (const [laser, at] of shots.sort((p, q) => p[1] - q[1])) {
      this.floodBeams(laser, NEVER, seen, (x) => {
        if (hit[x] === 1 || !this.mayBy(x, NEVER, (k) => k !== Tile.Water)) return;
        hit[x] = 1;
        if (this.mayBy(x, NEVER, (k) => k !== Tile.Water && k !== Tile.Ice)) {
          this.laserHit.add(x);
          changed = this.lower(x, Tile.Water, at) || changed;
        }
        if (!this.may(x, Tile.Laser)) return;
        for (const n of DIRECTIONS.map((e) => stepFrom(x, e))) {
          if (n === OFF_MAP || !this.mayBy(n, NEVER, (k) => k !== Tile.Water)) continue;
          this.laserHit.add(n);
          changed = this.lower(n, Tile.Water, at) || changed;
        }
      });
    }
    return changed;
  }

  /** Whether `cell` may hold, in the state after step t, a tile `test` accepts (kindsBy without the list). */
  private mayBy(cell: number, t: number, test: (tile: number) => boolean): boolean {
    if (cell === OFF_MAP) return test(Tile.Water);
    for (let k = 0; k < TILE_COUNT; k++) {
      const e = this.earliest[cell * TILE_COUNT + k]!;
      if (e < NEVER && e <= t && test(k)) return true;
    }
    return false;
  }

  /** The cells a beam from `laser` (in any direction) may hit, through water and refracting ice. */
  beamTargets(laser: number, ever = NEVER): Set<number> {
    const hits = new Set<number>();
    this.floodBeams(laser, ever, new Uint8Array(CELLS * 6), (x) => {
      if (this.mayBy(x, ever, (k) => k !== Tile.Water)) hits.add(x);
    });
    return hits;
  }

  /**
   * Walks the beam states (`cell * 6 + direction`) a shot from `laser` may reach with the tiles
   * cells may hold by step `ever`, on through water and turned by ice, skipping and marking those
   * in `seen`; `enter` sees each state's cell after the walk has gone on from it.
   */
  private floodBeams(laser: number, ever: number, seen: Uint8Array, enter: (cell: number) => void): void {
    const queue: number[] = [];
    const push = (x: number, d: number): void => {
      if (x !== OFF_MAP && seen[x * 6 + d] === 0) {
        seen[x * 6 + d] = 1;
        queue.push(x * 6 + d);
      }
    };
    for (const d of DIRECTIONS) push(stepFrom(laser, d), d);
    while (queue.length > 0) {
      const state = queue.pop()!;
      const x = Math.floor(state / 6);
      const d = (state % 6) as Direction;
      if (this.mayBy(x, ever, (k) => k === Tile.Ice)) {
        for (const r of [(d + 1) % 6, (d + 5) % 6] as Direction[]) push(stepFrom(x, r), r);
      }
      if (this.mayBy(x, ever, (k) => k === Tile.Water)) push(stepFrom(x, d), d);
      enter(x);
    }
  }

  /** Cells that may hold a laser the player may land on. */
  private firingLasers(): number[] {
    return this.cellsThatMayHold(Tile.Laser).filter((c) => this.firstArrival(c) < NEVER);
  }

  /**
   * The cells that may hold a laser the player may land on whose shot may destroy `cell` (hitting
   * it, or a laser next to it that then explodes); empty when no laser reaches it.
   */
  destroyers(cell: number): number[] {
    if (!this.laserHit.has(cell)) return [];
    let targets = this.targetsCache;
    if (targets === undefined) {
      targets = new Map(this.firingLasers().map((L) => [L, this.beamTargets(L)]));
      this.targetsCache = targets;
    }
    const out: number[] = [];
    for (const [L, hits] of targets) {
      const near = DIRECTIONS.some(
        (d) => hits.has(stepFrom(cell, d)) && this.may(stepFrom(cell, d), Tile.Laser),
      );
      if (hits.has(cell) || near) out.push(L);
    }
    return out;
  }

  private targetsCache: Map<number, Set<number>> | undefined;
  private treesFit: boolean | undefined;

  /** Whether the tree of beams of every laser's shot stays within MAX_RAY_NODES (computed once). */
  rayTreesFit(): boolean {
    if (this.treesFit === undefined) {
      try {
        for (const L of this.cellsThatMayHold(Tile.Laser)) rayTree(L, (c) => this.kinds(c));
        this.treesFit = true;
      } catch {
        this.treesFit = false;
      }
    }
    return this.treesFit;
  }

  /**
   * Whether one shot (a jump fires all six ways, ice splits a beam) may hit two neighbouring
   * cells that may both hold lasers: the game then explodes them in the order of the hits, which
   * a set of hits does not tell.
   */
  laserOrderMatters(): boolean {
    for (const L of this.firingLasers()) {
      const modes: Direction[][] = this.jumpItems.length > 0 ? [[...DIRECTIONS]] : DIRECTIONS.map((d) => [d]);
      if (this.jumpItems.length > 0) modes.push(...DIRECTIONS.map((d) => [d]));
      for (const mode of modes) {
        const rayOf = new Map<number, Set<number>>();
        const rays: [number, Direction][] = mode.map((d) => [L, d]);
        const seen = new Set<number>();
        for (let r = 0; r < rays.length; r++) {
          const [o, d] = rays[r]!;
          if (seen.has(o * 6 + d)) continue;
          seen.add(o * 6 + d);
          for (let x = stepFrom(o, d); x !== OFF_MAP; x = stepFrom(x, d)) {
            const kinds = this.kinds(x);
            if (kinds.includes(Tile.Laser)) {
              let set = rayOf.get(x);
              if (set === undefined) rayOf.set(x, (set = new Set()));
              set.add(r);
            }
            if (kinds.includes(Tile.Ice))
              for (const g of [(d + 1) % 6, (d + 5) % 6] as Direction[]) rays.push([x, g]);
            if (!kinds.includes(Tile.Water)) break;
          }
        }
        for (const [x, mine] of rayOf) {
          for (const d of DIRECTIONS) {
            const theirs = rayOf.get(stepFrom(x, d));
            if (theirs === undefined) continue;
            if ([...theirs].some((r) => [...mine].some((q) => q !== r))) return true;
          }
        }
      }
    }
    return false;
  }

  private relaxBoat(boat: number, at: number): boolean {
    let changed = false;
    for (const d of DIRECTIONS) {
      let q = stepFrom(boat, d);
      if (q === OFF_MAP || !this.may(q, Tile.Water)) continue;
      this.boated.add(boat);
      changed = this.lower(boat, Tile.Water, at) || changed;
      // The boat comes to rest only where land may be next.
      for (; q !== OFF_MAP && this.may(q, Tile.Water); q = stepFrom(q, d)) {
        const ahead = stepFrom(q, d);
        if (ahead === OFF_MAP || !this.kinds(ahead).some((k) => k !== Tile.Water)) continue;
        this.boated.add(q);
        changed = this.lower(q, Tile.Boat, Math.max(at, this.earliestOf(q, Tile.Water))) || changed;
      }
    }
    return changed;
  }
}

/** One cell a beam of a laser shot may hit first, as a node of the shot's tree of beams. */
export interface RayHit {
  /** The node's place in the game's order of hits (preorder). */
  node: number;
  /** The node whose hit (on ice) sent this beam, or none for a beam fired by the laser. */
  parent: number | undefined;
  /** The beam's direction. */
  dir: Direction;
  /** The cells the beam passes over (all water) before it hits `cell`. */
  over: number[];
  cell: number;
}

/** Trees larger than this are not built (ice sending beams too many ways): the order is left to refine. */
export const MAX_RAY_NODES = 4000;

/**
 * The tree of beams a shot from `laser` may send (its six directions in the game's order; a jump
 * fires them all, a move only the one it goes in), given the tiles each cell may hold: a beam
 * passes over cells that may be water and may hit every cell that may hold a tile; a hit on ice
 * sends two beams on, turned clockwise first, unless an ancestor took the same ice in the same
 * direction (the game does not split a beam there twice). One node per possible hit, in preorder.
 */
export function rayTree(laser: number, kindsOf: (cell: number) => readonly number[]): RayHit[] {
  const out: RayHit[] = [];
  const walk = (origin: number, dir: Direction, parent: number | undefined, taken: Set<number>): void => {
    const over: number[] = [];
    for (let x = stepFrom(origin, dir); x !== OFF_MAP; x = stepFrom(x, dir)) {
      const kinds = kindsOf(x);
      if (kinds.some((k) => k !== Tile.Water)) {
        const node = out.length;
        if (node >= MAX_RAY_NODES) throw new RangeError('a laser shot may take too many ways round the ice');
        out.push({ node, parent, dir, over: [...over], cell: x });
        if (kinds.includes(Tile.Ice) && !taken.has(x * 6 + dir)) {
          const next = new Set(taken).add(x * 6 + dir);
          walk(x, ((dir + 1) % 6) as Direction, node, next);
          walk(x, ((dir + 5) % 6) as Direction, node, next);
        }
      }
      if (!kinds.includes(Tile.Water)) return;
      over.push(x);
    }
  };
  for (const d of DIRECTIONS) walk(laser, d, undefined, new Set());
  return out;
}
