/*
 * Hex-a-Hop at horizon T: "the level is won by step T", with an absorbing done state (after the
 * win no move is made and the board is frozen), so SAT(T) is monotone in T.
 * Each step t runs in the game's order: the player leaves the old tile (and the board is checked),
 * lands (trampolines, ice and boats carry the player on), the final tile acts on the board, and
 * builders and lasers check the board again. Four tables of tile literals follow it: S(t-1), the
 * state before; M(t), after the leave and its board check; E(t), after the final tile's effect;
 * S(t), after the second check. A cell gets fresh one-hot variables in a table only when that
 * phase can change it (HexahopStatics says which tiles each cell may hold by each step); otherwise
 * the table reuses the previous one's, so basic levels have one table per step.
 * n_t = cells the player may stand on by step t, N = sum of n_t, D = cells that may hold more
 * than one tile, k_c <= 17 the tiles cell c may hold (2 or 3 on most cells), b = branches of the
 * landing trees of the moves out of a layer (about 6 n_t, more around trampolines, ice and boats).
 * Variables:
 *   pos(x,y,t): N;  act(a,t): 6T, 7T with jump items;  done(t): T (false below the lower bound);
 *   tiles: m/e/s(k,x,y,t), one per tile a changing cell may hold: at most 3 sum k_c T;
 *   anyG/anyB (a green / blue tile remains after the leave; again after the effect): <= 4T with one
 *   support each per green or blue cell and step; check1/check2 (only for blue walls with no blue
 *   tile at the start): 2T;  events per step: landed/toggle/deice/build/spin/fire per standable
 *   cell of those tiles, boat departures and arrivals per boat line, beam(x,y,d) per beam state,
 *   hit/explode/destroyed per cell a laser reaches;  beam ranks: per beam state entering a cell
 *   that may be ice on a loop of L such states, ceil(log2 L) bits, and per origin on the same
 *   loop a support and a comparator (one variable per bit);  items: itm(x,y,t) per item cell, visit
 *   auxiliaries, and unary counters anti(k,t), jump(k,t) (k up to the items) with one increment
 *   chain per step: items^2 T;  budget: waste(t), blueLeft(t): 2T plus the counter's
 *   2T (T - greens); with lasers (shotBudget), per step and green cell its shot may destroy a
 *   shotGreen, and up to m credits (m: the greens one beam may destroy, 1 where no laser has a
 *   green neighbour) with an at-least chain of m per shotGreen.
 * Clauses:
 *   actions: at least one unless done, none after done, at most one: <= 1 + 7 + 21 per step, and a
 *   jump needs a jump item;  positions: at least one, at most one (commander, ~3.5 n_t), frozen
 *   after done (n_t), (predecessors) one move from the cell at t - 1: n_t clauses of <= 7
 *   literals, and never on water;  moves: per (cell, action), refused entries forbidden (2
 *   clauses), one clause per landing branch (land, or forbidden death): about 7 N + sum b;
 *   tiles: per changing cell, phase and tile, the transition (frozen, left, lowered, each event
 *   or none) plus at least / at most one: about 4 k_c + k_c^2 / 2;  anyG/anyB/checks: two
 *   implications per cell each way;  events: their definitions (a few clauses each) and, per
 *   affected cell, one clause per (event, tile);  beams: beam <-> (fired here, passed over water,
 *   refracted by ice);  beam ranks: per ranked state, beam -> some origin (a shot, a beam from
 *   outside the loop, or a support), and per support its conditions plus 3 clauses per bit;  items: 3 per item cell and step, counters ~4 items per pickup;
 *   done(t) <-> no green tile and no green wall at t: g + 1 per step, and done(t-1) -> done(t);
 *   goal: done(T).
 * Redundant (each a choice, for benchmarks): deadlines, a green that cannot be moved or destroyed
 * from afar and is still there at t is within T - 1 - t moves of the player: at most N g binary
 * clauses; budget, the moves leaving no green (and twice those leaving blue) are at most T -
 * greens: n_t + 2 g clauses per step plus the counter's ~4T (T - greens); with lasers (only with
 * shotBudget, and only where a shot sends one beam: no ice, no jumps) each credit a step's shot
 * earns ("it destroyed at least j greens") adds one to the bound, and each credit not earned
 * counts as spent, since greens destroyed from afar need no move to leave them; visits, each
 * such green at the start is stood on before T: g clauses of T; phases (green walls, no blue
 * walls, builders, spinners or lasers): the walls come down once, all together; returns, no step
 * between two inert cells (normal tiles or stone walls nothing changes) and straight back: at most
 * 6 N ternary clauses; idleSteps, walks of two or three moves onto normal tiles that a shorter or
 * earlier walk does the same as (returns, detours, the later of two orders): per cell and step at
 * most 6 (1 + 5 k) clauses of up to 8 literals, k the tiles of IDLE_LANDINGS a cell may hold.
 * Exactness rests on two invariants of the game: while the level is not won, a green tile exists
 * (only the leave of a green and a laser remove greens, and both check the board), so "no green
 * tile or wall" is the win and "no green left" means the board check lowered the green walls; and
 * after the first board check a blue wall exists only while a blue tile does (only leaving blue
 * and lasers remove blue tiles, and both check), so "no blue left" means the check lowered them.
 * Beams around a loop of ice could hold each other up in the beam clauses alone; the ranks rule
 * that out (the game's beams are the least fixpoint), and refine() checks every model for such
 * a set and adds its loop formula (needed only with beamRanks off). Laser hits are a set. Where
 * one shot may hit two neighbouring lasers, whose explosions then depend on the order of the
 * hits, the hit lasers that explode are any maximal set with no two neighbours, which every order
 * of the hits gives (so UNSAT is still a proof), and refine() replays each model's shots in the
 * game's order and cuts the explosions that differ (orderShot). With lazyOrder off, every beam of
 * a shot is instead a node of a tree in the game's order, with hit, first-hit and explosion
 * auxiliaries per (node, cell) (encodeLasersInOrder), where that tree fits.
 * Windows: where tiles may spread over the map (two spinners side by side rolling each other
 * across the water), the statics follow them only within a radius of the level's tiles
 * (WINDOW_START, or `variant.window`). A step that would put a tile outside (a spinner's turn, a
 * builder) or the player (a boat) is a leak: escaped(t) <-> escaped(t - 1) or a leak of step t,
 * escaped(t) -> done(t) (and done(t) -> no green or escaped(t)), and the clauses true of wins only
 * (deadlines, budget, visits, and done below the window's lower bound) also hold once escaped(T).
 * Every real run is then a model up to its first leak, so UNSAT is a proof; a model that leaked is
 * no plan, and `widen` gives the encoding one step wider to solve instead. A green or blue tile
 * or wall a turn puts off the map leaks too (the game sees it go only at the next board check):
 * `widen` then leaves such runs out, and UNSAT of that encoding proves nothing (`unprovenUnsat`).
 */
import {
  atMostOne,
  CnfFormula,
  type EncodingSink,
  lessThan,
  type Lit,
  type Model,
  sequentialAtMostK,
  sequentialCounter,
} from '@satfarm/cnf';

import type { EncodeOptions, Encoded, EncodingChoices } from '../game-definition.js';
import { chainBranches, type ChainOracle, isRaised, leftTile, TILE_COUNT } from './hexahop.board.js';
import { decodeHexahop } from './hexahop.decode.js';
import { unsupportedFeatures } from './hexahop.features.js';
import { cellX, cellY, type Direction, DIRECTIONS, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { greensPerShot, hexahopLowerBound } from './hexahop.lower-bound.js';
import {
  explodingLasers,
  type HexahopInstance,
  type HexahopSolution,
  Tile,
  traceShot,
} from './hexahop.model.js';
import { type HexahopStatics, rayTree, staticsOf } from './hexahop.statics.js';

/** Encoding choices, for benchmarks: every choice gives the same answers. */
export interface HexahopEncodingChoices {
  /** Redundant clauses: a green cell still green at t needs the player within reach by T. */
  deadlines: boolean;
  /** Redundant clauses: the player's cell at t is one move from the cell at t - 1 (or the same, after the win). */
  predecessors: boolean;
  /**
   * Redundant move budget: moves that leave no green tile or wall, plus moves that leave a blue
   * tile or wall (each makes one more green to leave), number at most T minus the greens at the start.
   */
  budget: boolean;
  /** Redundant clauses: every green tile or wall at the start is stood on at some step before T. */
  visits: boolean;
  /**
   * Redundant phase (levels with green walls and no blue walls): lowered(t), "the green walls have
   * come down by step t", is monotone; once true every green at the start is water and no green
   * wall is left; a green wall's cell is green only once it is true.
   */
  phases: boolean;
  /**
   * Laser hits in the game's order, through the tree of beams of each shot, on every level with
   * lasers, not only where one shot may hit two neighbouring lasers (where the order changes the
   * outcome, and the tree is used there when `lazyOrder` is off).
   */
  orderedHits: boolean;
  /**
   * Where one shot may hit two neighbouring lasers: the hits are a set, the hit lasers that
   * explode are any maximal set of them with no two neighbours (every order of the hits gives
   * such a set), and `refine` cuts each model's shots to the game's order. Off: the tree of beams
   * in the game's order (as `orderedHits`), except where that tree is too large.
   */
  lazyOrder: boolean;
  /**
   * Redundant clauses: the player never steps from an inert cell (a normal tile or stone wall that
   * nothing changes, with no item) to an inert neighbour and straight back, which changes nothing.
   */
  returns: boolean;
  /**
   * Redundant clauses: moves in a row onto normal tiles (which change nothing) never come straight
   * back, never go round in two moves to a neighbour or in three to a cell two moves away, and of
   * the two orders of moves reaching the same cell two moves away over normal tiles, only the one
   * with the lower first direction is taken: each such walk has a shorter or equal one with the
   * same outcome, so the first shortest plan in the order of directions takes none.
   */
  idleSteps: boolean;
  /**
   * Beams that a loop of ice could hold up by themselves are ruled out in the formula (a rank per
   * beam entering ice on such a loop, each beam fed by one of a lower rank), not cut afterwards
   * by `refine`, one model at a time.
   */
  beamRanks: boolean;
  /**
   * The player's reach step by step, over the tiles each cell may hold by then, not over every
   * tile it may ever hold: fewer cells to stand on early where tiles come late.
   */
  timedReach: boolean;
  /**
   * The move budget on levels with lasers too, where each shot sends one beam: a step whose shot
   * destroys a green adds as much room as one shot may destroy greens.
   */
  shotBudget: boolean;
}

export const DEFAULT_HEXAHOP_ENCODING: HexahopEncodingChoices = {
  deadlines: true,
  predecessors: true,
  budget: true,
  visits: false,
  phases: true,
  orderedHits: false,
  lazyOrder: true,
  returns: true,
  idleSteps: false,
  beamRanks: true,
  timedReach: true,
  shotBudget: false,
};

/** The keys `options.variant` may hold: the choices, and `window` (see `encodeHexahop`). */
const VARIANT_KEYS: readonly string[] = [...Object.keys(DEFAULT_HEXAHOP_ENCODING), 'window'];

/**
 * What is wrong with encoding choices a caller names, if anything: the first key that is no
 * choice, a choice that is not true or false, or a window that is not a whole number of steps.
 */
export function hexahopVariantProblem(variant: EncodingChoices): { key: string; reason: string } | undefined {
  for (const [key, value] of Object.entries(variant)) {
    if (!VARIANT_KEYS.includes(key)) {
      return { key, reason: `is no Hex-a-Hop encoding choice (one of ${VARIANT_KEYS.join(', ')})` };
    }
    if (key === 'window') {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        return { key, reason: `must be a whole number of steps, got ${JSON.stringify(value)}` };
    } else if (typeof value !== 'boolean') {
      return { key, reason: `must be true or false, got ${JSON.stringify(value)}` };
    }
  }
  return undefined;
}

/**
 * Reads `options.variant` (keys as in HexahopEncodingChoices) over the defaults. A key that is no
 * choice, or a value the choice does not take, throws (a misspelt choice would otherwise leave
 * the default in place unseen, on runs that may take hours).
 */
export function hexahopEncodingChoices(options?: EncodeOptions): HexahopEncodingChoices {
  const v = options?.variant ?? {};
  const problem = hexahopVariantProblem(v);
  if (problem !== undefined) throw new RangeError(`variant.${problem.key} ${problem.reason}`);
  const flag = (key: keyof HexahopEncodingChoices): boolean =>
    v[key] === undefined ? DEFAULT_HEXAHOP_ENCODING[key] : v[key] === true;
  return {
    deadlines: flag('deadlines'),
    predecessors: flag('predecessors'),
    budget: flag('budget'),
    visits: flag('visits'),
    phases: flag('phases'),
    orderedHits: flag('orderedHits'),
    lazyOrder: flag('lazyOrder'),
    returns: flag('returns'),
    idleSteps: flag('idleSteps'),
    beamRanks: flag('beamRanks'),
    timedReach: flag('timedReach'),
    shotBudget: flag('shotBudget'),
  };
}

const TRUE = Number.POSITIVE_INFINITY;
const FALSE = 0;
/** The action index of a jump in place. */
const JUMP = 6;
/** What a laser shot tells apart on a cell: water, ice, a laser, or (none of these) another tile. */
const SHOT_CLASSES: readonly number[] = [Tile.Water, Tile.Ice, Tile.Laser];
/** Floor tiles whose landing does the same from every direction (see encodeIdleSteps). */
const IDLE_LANDINGS: readonly number[] = [
  Tile.Normal,
  Tile.Green,
  Tile.Blue,
  Tile.Spinner,
  Tile.Builder,
  Tile.LiftDown,
];

function not(lit: number): number {
  return lit === TRUE ? FALSE : lit === FALSE ? TRUE : -lit;
}

function addFolded(sink: EncodingSink, lits: readonly number[]): void {
  if (lits.includes(TRUE)) return;
  sink.add(lits.filter((l) => l !== FALSE));
}

/** At most one of `lits`, which may hold the constants. */
function atMostOneFolded(sink: EncodingSink, lits: readonly number[], encoding: 'pairwise' | 'auto'): void {
  const live = lits.filter((l) => l !== FALSE && l !== TRUE);
  const constantTrue = lits.length - live.length - lits.filter((l) => l === FALSE).length;
  if (constantTrue > 1) sink.add([]);
  else if (constantTrue === 1) for (const l of live) sink.add([-l]);
  else atMostOne(sink, live, encoding);
}

/** Encodes `instance` at horizon `horizon` (see the comment at the top of this file). */
export function encodeHexahop(
  instance: HexahopInstance,
  horizon: number,
  options?: EncodeOptions,
): Encoded<HexahopSolution> {
  const unsupported = unsupportedFeatures(instance);
  if (unsupported.length > 0) throw new RangeError(`unsupported tile types: ${unsupported.join(', ')}`);
  const choices = hexahopEncodingChoices(options);
  let window: number | undefined;
  if (staticsOf(instance).unbounded) {
    // A whole number of steps: hexahopEncodingChoices has checked it.
    const start = options?.variant?.['window'] as number | undefined;
    window = Math.max(start ?? WINDOW_START, windowNeeded.get(instance) ?? 0);
  }
  return new HexahopEncoder(instance, horizon, choices, window).encode();
}

/** The name of the variables pos(x, y, t) in an encoding's pool. */
const POSITION = 'pos';

/**
 * The variable "the player stands on (x, y) after step t" (1 <= t <= T) of a formula
 * `encodeHexahop` built, or undefined where the statics rule that out: a literal to split a
 * horizon by (a unit clause of it is a cube).
 */
export function hexahopPositionVariable(
  formula: CnfFormula,
  x: number,
  y: number,
  t: number,
): number | undefined {
  return formula.pool.lookup(POSITION, x, y, t);
}

/**
 * The first window of a level whose tiles may spread over the map: its tiles and the cells within
 * this many steps of them (two spinners rolling each other take a dozen moves or more per step
 * away from the land).
 */
export const WINDOW_START = 2;
/** Per instance, the widest window a model has needed so far: later horizons start there. */
const windowNeeded = new WeakMap<object, number>();

/** Tarjan's strongly connected components of the graph `edges` spans over `nodes`. */
function stronglyConnected(nodes: readonly string[], edges: (node: string) => readonly string[]): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const known = new Set(nodes);
  const visit = (v: string): void => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of edges(v)) {
      if (!known.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      for (let w = stack.pop()!; ; w = stack.pop()!) {
        onStack.delete(w);
        component.push(w);
        if (w === v) break;
      }
      out.push(component);
    }
  };
  for (const v of nodes) if (!index.has(v)) visit(v);
  return out;
}

const GREENISH = [Tile.Green, Tile.GreenWall] as const;
const LIFTS = [Tile.LiftDown, Tile.LiftUp] as const;

/** A change the final tile of a move makes to a cell: its tile maps by `to`, or it takes `from`'s tile. */
interface CellEvent {
  lit: number;
  to?: (tile: number) => number;
  from?: number;
}

type Table = Map<number, number[]>;

/** One beam state of a step ("a beam enters cell x going in direction d") and its sources. */
interface BeamState {
  key: string;
  lit: number;
  /** Fired there by a laser (no `from`), or carried from state `from` over water or ice (`through`). */
  sources: { lit: number; through?: number; from: string | undefined; how: 'fire' | 'pass' | 'refract' }[];
}

/** The shot of one step where its explosions are left to `refine` (lazyOrder). */
interface LaserShot {
  t: number;
  /** Per laser the player may land on: "it fires at step t". */
  firing: { laser: number; lit: number }[];
  /** Per hit cell that may be a laser: "it explodes". */
  explode: Map<number, number>;
}

class HexahopEncoder {
  private readonly f = new CnfFormula();
  private readonly st: HexahopStatics;
  private readonly layers: number[][] = [];
  private readonly layerSets: Set<number>[] = [];
  /** Cells that may hold more than one tile. */
  private readonly dynamic: number[];
  private readonly initial: Uint8Array;
  private readonly lower: number;
  /** With a window: no run inside it wins before this step. */
  private readonly winsBelow: number;
  private readonly actions: number;
  private readonly withGreenWalls: boolean;
  private readonly withBlueWalls: boolean;
  /** Blue walls with no blue tile at the start: they stay until the first board check. */
  private readonly blueWallsWaitForCheck: boolean;
  private readonly changesWhenLeft = new Set<number>();
  private readonly changesByEffect = new Set<number>();
  private readonly changesBySecondCheck = new Set<number>();
  private readonly withSecondCheck: boolean;
  /** Hits are encoded in the game's order through the tree of beams of each shot. */
  private readonly orderedHits: boolean;
  /** One shot may hit two neighbouring lasers, and `refine` puts the explosions in the game's order. */
  private readonly lazyOrder: boolean;
  /** Per step with lasers (lazyOrder): what `refine` replays. */
  private readonly shots: LaserShot[] = [];
  private readonly cache = new Map<string, number>();
  private readonly S: Table[] = [];
  private readonly M: Table[] = [];
  private readonly E: Table[] = [];
  /** Per step, the events that change each cell in the effect phase. */
  private events = new Map<number, CellEvent[]>();
  /** Per step, literals "the move lands on the item at this cell on its way" (branch events). */
  private passes = new Map<number, number[]>();
  private readonly antiCells: number[];
  private readonly jumpCells: number[];
  /** The beam states of every step, for the loop check of `refine`. */
  private readonly beams: BeamState[][] = [];
  /** Per step: the events after which the game checks the board again (builders, lasers). */
  private secondChecks: number[] = [];
  /** Per step: "an anti-ice item is held once this move's items are taken", and "one was spent". */
  private antiHeld = FALSE;
  private antiSpent = FALSE;
  /** Per step: the cells that may be green (tile or wall) which its laser shot may destroy, and when. */
  private readonly greensShot = new Map<number, { cell: number; lit: number }[]>();
  /** Per step (with a window): the events that put a tile or the player out of it, or off the map. */
  private leaks: { lit: number; offMap: boolean }[][] = [];

  constructor(
    private readonly instance: HexahopInstance,
    private readonly T: number,
    private readonly choices: HexahopEncodingChoices,
    /** The window's radius, on levels whose tiles may spread over the map (see `widen`). */
    private readonly window: number | undefined,
    /** Runs that turn a green or blue tile or wall off the map are left out (see `widen`). */
    private readonly keepOnMap = false,
  ) {
    this.st = staticsOf(instance, choices.timedReach, window);
    const st = this.st;
    this.initial = Uint8Array.from(instance.tiles);
    for (let t = 0; t <= T; t++) {
      const layer = st.cellsBy(t);
      this.layers.push(layer);
      this.layerSets.push(new Set(layer));
    }
    this.dynamic = [];
    for (let c = 0; c < this.initial.length; c++) if (st.kinds(c).length > 1) this.dynamic.push(c);
    this.withGreenWalls = st.cellsThatMayHold(Tile.GreenWall).length > 0;
    this.withBlueWalls = st.cellsThatMayHold(Tile.BlueWall).length > 0;
    this.blueWallsWaitForCheck =
      this.withBlueWalls && st.cellsThatMayHold(Tile.Blue).every((c) => this.initial[c] !== Tile.Blue);
    const reachable = (c: number): boolean => st.firstArrival(c) < Number.POSITIVE_INFINITY;
    const landable = (c: number): boolean => st.firstLanding(c) < Number.POSITIVE_INFINITY;
    this.withSecondCheck = [Tile.Builder, Tile.Laser].some((k) => st.cellsThatMayHold(k).some(reachable));
    for (const c of this.dynamic) {
      const kinds = st.kinds(c);
      const walls = kinds.includes(Tile.GreenWall) || kinds.includes(Tile.BlueWall);
      if (walls || (reachable(c) && kinds.some((k) => leftTile(k) !== k))) this.changesWhenLeft.add(c);
      if (walls && this.withSecondCheck) this.changesBySecondCheck.add(c);
      const byLanding =
        reachable(c) &&
        (kinds.some((k) => k === Tile.LiftDown || k === Tile.LiftUp) ||
          (kinds.includes(Tile.Ice) && st.antiItems.length > 0));
      if (byLanding || st.built.has(c) || st.spun.has(c) || st.laserHit.has(c) || st.boated.has(c))
        this.changesByEffect.add(c);
    }
    this.antiCells = st.antiItems.filter(landable);
    this.jumpCells = st.jumpItems.filter(landable);
    this.actions = this.jumpCells.length > 0 ? 7 : 6;
    // Out of the window the run stops (done) before any bound on a win holds: the bound over the
    // window's statics holds for the runs that stay inside (winsBelow).
    this.lower = window === undefined ? hexahopLowerBound(instance) : 1;
    this.winsBelow = window === undefined ? 0 : hexahopLowerBound(instance, this.st);
    const orderMatters = st.laserOrderMatters();
    const tree = (choices.orderedHits || orderMatters) && !(orderMatters && choices.lazyOrder);
    this.orderedHits = tree && st.rayTreesFit();
    this.lazyOrder = orderMatters && !this.orderedHits;
  }

  encode(): Encoded<HexahopSolution> {
    const f = this.f;
    f.comment(`hexahop ${this.instance.name} T=${this.T}`);
    const initial: Table = new Map();
    for (const c of this.dynamic) {
      const row = new Array<number>(TILE_COUNT).fill(FALSE);
      row[this.initial[c]!] = TRUE;
      initial.set(c, row);
    }
    this.S.push(initial);
    this.M.push(initial);
    this.E.push(initial);
    for (let t = 1; t <= this.T; t++) {
      this.events = new Map();
      this.passes = new Map();
      this.leaks.push([]);
      this.encodeActions(t);
      this.encodePositions(t);
      this.encodeLeave(t);
      this.encodeMoves(t);
      this.encodeItems(t);
      this.encodeLandingEffects(t);
      if (this.orderedHits) this.encodeLasersInOrder(t);
      else this.encodeLasers(t);
      this.encodeBoats(t);
      this.encodeEffects(t);
      this.encodeSecondCheck(t);
      this.encodeNoWater(t);
      this.encodeEscape(t);
      this.encodeDone(t);
    }
    if (this.choices.deadlines) this.encodeDeadlines();
    if (this.choices.budget && (this.st.laserHit.size === 0 || this.choices.shotBudget)) this.encodeBudget();
    if (this.choices.visits) this.encodeVisits();
    if (this.choices.returns) this.encodeReturns();
    if (this.choices.idleSteps) this.encodeIdleSteps();
    const plain = this.st.laserHit.size === 0 && this.st.spun.size === 0 && this.st.built.size === 0;
    if (this.choices.phases && this.withGreenWalls && !this.withBlueWalls && plain) this.encodePhases();
    addFolded(f, [this.done(this.T)]);
    return {
      formula: f,
      decode: (model) => decodeHexahop(model, f.pool, this.instance, this.T),
      refine: (model) => this.refine(model),
      ...(this.window === undefined ? {} : { widen: (model: Model) => this.widen(model) }),
      ...(this.keepOnMap
        ? {
            unprovenUnsat:
              'no plan keeps every green and blue tile on the map; one that turns one off is not followed',
          }
        : {}),
    };
  }

  /**
   * A model that leaves the window (escaped(T)) is no plan: it asks for the encoding over a
   * window one step wider, remembered for the instance's later horizons. A green or blue tile
   * (or wall) turned off the map cannot be followed wider: it asks for the encoding without such
   * runs, whose plans are still plans but whose UNSAT proves nothing (`unprovenUnsat`).
   */
  private widen(model: Model): Encoded<HexahopSolution> | undefined {
    const holds = (lit: number): boolean => lit === TRUE || (lit !== FALSE && model.value(lit));
    if (!holds(this.escaped(this.T))) return undefined;
    const step = this.leaks.findIndex((list) => list.some((leak) => holds(leak.lit)));
    if (this.leaks[step]!.some((leak) => leak.offMap && holds(leak.lit)))
      return new HexahopEncoder(this.instance, this.T, this.choices, this.window, true).encode();
    const wider = this.window! + 1;
    windowNeeded.set(this.instance, Math.max(wider, windowNeeded.get(this.instance) ?? 0));
    return new HexahopEncoder(this.instance, this.T, this.choices, wider, this.keepOnMap).encode();
  }

  /**
   * Beams are defined by "a beam is here iff one of its sources is", which a loop of ice can
   * satisfy by beams holding each other up. The game's beams are the least such set: for a
   * model's beams that no laser shot reaches, add the loop formula (one of them only with a
   * source from outside them), which every real run satisfies.
   */
  private refine(model: Model): Lit[][] | undefined {
    const cuts: Lit[][] = [];
    const holds = (lit: number): boolean => lit === TRUE || (lit !== FALSE && model.value(lit));
    for (const shot of this.shots) cuts.push(...this.orderShot(shot, holds));
    for (const graph of this.beams) {
      const on = graph.filter((s) => holds(s.lit));
      if (on.length === 0) continue;
      const reached = new Set<string>();
      for (let grew = true; grew;) {
        grew = false;
        for (const s of on) {
          if (reached.has(s.key)) continue;
          const fed = s.sources.some((r) =>
            r.from === undefined ? holds(r.lit) : reached.has(r.from) && holds(r.through!),
          );
          if (fed) {
            reached.add(s.key);
            grew = true;
          }
        }
      }
      const unfounded = on.filter((s) => !reached.has(s.key));
      if (unfounded.length === 0) continue;
      const inside = new Set(unfounded.map((s) => s.key));
      const outside = unfounded.flatMap((s) =>
        s.sources.filter((r) => r.from === undefined || !inside.has(r.from)).map((r) => r.lit),
      );
      for (const s of unfounded) {
        const clause = [-s.lit, ...new Set(outside)].filter((l) => l !== FALSE);
        if (!clause.includes(TRUE)) cuts.push(clause);
      }
    }
    return cuts.length > 0 ? cuts : undefined;
  }

  /**
   * The explosions of a model's shot at step t, put in the game's order: replays the shot over
   * the model's tiles M(t) and, where the model's explosions differ, cuts "with this laser and
   * move, and these tiles on every cell the beams looked at, this cell explodes (or not)", which
   * every real run satisfies.
   */
  private orderShot(shot: LaserShot, holds: (lit: number) => boolean): Lit[][] {
    const { t } = shot;
    const fired = shot.firing.find((f) => holds(f.lit));
    if (fired === undefined) return [];
    const action = Array.from({ length: this.actions }, (_, a) => a).find((a) => holds(this.act(a, t)));
    if (action === undefined) throw new Error(`hexahop: a laser fires at step ${t} with no move`);
    const table = this.M[t]!;
    const tileAt = (c: number): number => {
      if (c === OFF_MAP) return Tile.Water;
      const row = table.get(c);
      if (row === undefined) return this.initial[c]!;
      const k = row.findIndex((l) => holds(l));
      if (k < 0) throw new Error(`hexahop: no tile on cell ${c} at step ${t}`);
      return k;
    };
    const traced = traceShot(tileAt, fired.laser, action === JUMP ? undefined : (action as Direction));
    const real = new Set(explodingLasers(tileAt, traced.hits));
    for (const x of real) {
      if (!shot.explode.has(x))
        throw new Error(`hexahop: laser ${x} explodes at step ${t} outside the beams encoded`);
    }
    const wrong = [...shot.explode].filter(([x, lit]) => holds(lit) !== real.has(x));
    if (wrong.length === 0) return [];
    const reason = [not(fired.lit), not(this.act(action, t))];
    for (const c of traced.read) {
      const k = tileAt(c);
      if (SHOT_CLASSES.includes(k)) reason.push(not(this.m(c, k, t)));
      else reason.push(...SHOT_CLASSES.map((q) => this.m(c, q, t)));
    }
    const cuts: Lit[][] = [];
    for (const [x, lit] of wrong) {
      const clause = [...reason, real.has(x) ? lit : -lit].filter((l) => l !== FALSE);
      if (!clause.includes(TRUE)) cuts.push([...new Set(clause)]);
    }
    return cuts;
  }

  // ---- literals ----

  private pos(cell: number, t: number): number {
    if (t < 0 || t > this.T || !this.layerSets[t]!.has(cell)) return FALSE;
    if (t === 0) return cell === this.st.start ? TRUE : FALSE;
    return this.f.pool.named(POSITION, cellX(cell), cellY(cell), t);
  }

  private act(a: number, t: number): number {
    if (a >= this.actions) return FALSE;
    return this.f.pool.named('act', a, t);
  }

  private done(t: number): number {
    if (t < this.lower) return FALSE;
    return this.f.pool.named('done', t);
  }

  /** "The run has left the window by step t" (never without a window). */
  private escaped(t: number): number {
    if (this.window === undefined || t < 1) return FALSE;
    return this.f.pool.named('escaped', t);
  }

  /**
   * Where redundant clauses that hold for wins go: the formula, or with a window, the formula with
   * each clause also satisfied by a run that has left the window (escaped(T)).
   */
  private winsOnly(): EncodingSink {
    const f = this.f;
    const guard = this.escaped(this.T);
    if (guard === FALSE) return f;
    return { pool: f.pool, add: (clause) => f.add([...clause, guard]) };
  }

  private addLeak(t: number, lit: number, offMap = false): void {
    if (lit === FALSE) return;
    if (offMap && this.keepOnMap) addFolded(this.f, [not(lit)]);
    else this.leaks[t - 1]!.push({ lit, offMap });
  }

  private moved(t: number): number {
    return not(this.done(t - 1));
  }

  private tile(table: Table, cell: number, k: number): number {
    if (cell === OFF_MAP) return k === Tile.Water ? TRUE : FALSE;
    const row = table.get(cell);
    if (row === undefined) return this.initial[cell] === k ? TRUE : FALSE;
    return row[k]!;
  }

  /** Tile k on `cell` in the state after step t. */
  private s(cell: number, k: number, t: number): number {
    return this.tile(this.S[t]!, cell, k);
  }

  /** Tile k on `cell` during the move of step t, after the leave and its board check. */
  private m(cell: number, k: number, t: number): number {
    return this.tile(this.M[t]!, cell, k);
  }

  /** Tile k on `cell` after the final tile of step t acted. */
  private e(cell: number, k: number, t: number): number {
    return this.tile(this.E[t]!, cell, k);
  }

  private any(table: Table, cell: number, test: (k: number) => boolean, key: string): number {
    const kinds = this.st.kinds(cell).filter(test);
    return this.orOf(
      key,
      kinds.map((k) => this.tile(table, cell, k)),
    );
  }

  private raisedIn(table: Table, cell: number, key: string): number {
    return this.any(table, cell, isRaised, `raised ${key} ${cell}`);
  }

  /** A literal equal to the disjunction of `lits` (an auxiliary when needed, cached by `key`). */
  private orOf(key: string, lits: readonly number[]): number {
    if (lits.includes(TRUE)) return TRUE;
    const live = [...new Set(lits.filter((l) => l !== FALSE))];
    if (live.length === 0) return FALSE;
    if (live.length === 1) return live[0]!;
    const k = `or ${key}`;
    let v = this.cache.get(k);
    if (v !== undefined) return v;
    v = this.f.pool.fresh();
    this.cache.set(k, v);
    for (const l of live) this.f.add([-l, v]);
    this.f.add([-v, ...live]);
    return v;
  }

  /** A literal equal to the conjunction of `lits` (an auxiliary when needed, cached by `key`). */
  private andOf(key: string, lits: readonly number[]): number {
    if (lits.includes(FALSE)) return FALSE;
    const live = [...new Set(lits.filter((l) => l !== TRUE))];
    if (live.length === 0) return TRUE;
    if (live.length === 1) return live[0]!;
    if (live.some((l) => live.includes(-l))) return FALSE;
    const k = `and ${key}`;
    let v = this.cache.get(k);
    if (v !== undefined) return v;
    v = this.f.pool.fresh();
    this.cache.set(k, v);
    for (const l of live) this.f.add([-v, l]);
    this.f.add([v, ...live.map((l) => -l)]);
    return v;
  }

  /** A literal implying both `a` and `b` (for the "some tile remains" explanations). */
  private support(a: number, b: number): number {
    if (a === FALSE || b === FALSE) return FALSE;
    if (a === TRUE) return b;
    if (b === TRUE) return a;
    const v = this.f.pool.fresh();
    this.f.add([-v, a]);
    this.f.add([-v, b]);
    return v;
  }

  /** A fresh table row for `cell` in phase `name` at step t (constants where one tile is possible). */
  private freshRow(name: string, cell: number, t: number): number[] {
    const kinds = this.st.kindsBy(cell, t);
    const row = new Array<number>(TILE_COUNT).fill(FALSE);
    if (kinds.length === 1) row[kinds[0]!] = TRUE;
    else for (const k of kinds) row[k] = this.f.pool.named(name, k, cellX(cell), cellY(cell), t);
    return row;
  }

  private exactlyOne(row: readonly number[]): void {
    const lits = row.filter((l) => l !== FALSE);
    addFolded(this.f, lits);
    atMostOneFolded(this.f, lits, 'pairwise');
  }

  // ---- actions and positions ----

  private encodeActions(t: number): void {
    const f = this.f;
    const acts = Array.from({ length: this.actions }, (_, a) => this.act(a, t));
    const doneBefore = this.done(t - 1);
    addFolded(f, [doneBefore, ...acts]);
    for (const a of acts) addFolded(f, [not(doneBefore), -a]);
    atMostOneFolded(f, acts, 'pairwise');
    if (this.actions > JUMP) addFolded(f, [not(this.act(JUMP, t)), this.counter('jump', 1, t - 1)]);
  }

  private encodePositions(t: number): void {
    const f = this.f;
    const here = this.layers[t]!.map((c) => this.pos(c, t));
    // A boat may carry the player out of the window, onto no cell the encoding follows.
    addFolded(f, [...here, this.escaped(t)]);
    atMostOneFolded(f, here, 'auto');
    const doneBefore = this.done(t - 1);
    if (doneBefore !== FALSE) {
      for (const c of this.layers[t - 1]!)
        addFolded(f, [not(doneBefore), not(this.pos(c, t - 1)), this.pos(c, t)]);
    }
    if (!this.choices.predecessors) return;
    for (const c of this.layers[t]!) {
      const from = this.st.previous(c).map((p) => this.pos(p, t - 1));
      const stay = doneBefore === FALSE ? FALSE : this.pos(c, t - 1);
      addFolded(f, [not(this.pos(c, t)), stay, ...from]);
    }
  }

  // ---- phase 1: the leave and its board check ----

  private encodeLeave(t: number): void {
    const f = this.f;
    const prev = this.S[t - 1]!;
    const table: Table = new Map(prev);
    this.M.push(table);
    for (const c of this.changesWhenLeft) table.set(c, this.freshRow('m', c, t));
    const doneBefore = this.done(t - 1);
    const anyG = this.withGreenWalls ? this.f.pool.named('anyG', t) : FALSE;
    const anyB = this.withBlueWalls ? this.f.pool.named('anyB', t) : FALSE;
    const check = this.blueWallsWaitForCheck ? this.firstCheck(t) : TRUE;
    for (const c of this.changesWhenLeft) {
      const left = this.pos(c, t - 1);
      const next = (k: number): number => this.tile(table, c, k);
      for (const k of this.st.kindsBy(c, t - 1)) {
        const was = this.tile(prev, c, k);
        if (was === FALSE) continue;
        addFolded(f, [not(was), not(doneBefore), next(k)]);
        addFolded(f, [not(was), not(left), doneBefore, next(leftTile(k))]);
        if (k === Tile.GreenWall) {
          addFolded(f, [not(was), left, doneBefore, anyG, next(Tile.Green)]);
          addFolded(f, [not(was), left, not(anyG), next(k)]);
        } else if (k === Tile.BlueWall) {
          addFolded(f, [not(was), left, doneBefore, anyB, not(check), next(Tile.Blue)]);
          addFolded(f, [not(was), left, not(anyB), next(k)]);
          addFolded(f, [not(was), left, check, next(k)]);
        } else {
          addFolded(f, [not(was), left, next(k)]);
        }
      }
      this.exactlyOne(table.get(c)!);
    }
    if (this.withGreenWalls) this.defineRemains(anyG, t, Tile.Green, [Tile.Blue]);
    if (this.withBlueWalls) this.defineRemains(anyB, t, Tile.Blue, [Tile.DeIced]);
  }

  /**
   * `remains` <-> a tile `kind` is on the board once the player has left the old tile: one not
   * left, or one that leaving makes (from `makers`).
   */
  private defineRemains(remains: number, t: number, kind: number, makers: number[]): void {
    const f = this.f;
    const support: number[] = [];
    for (const c of new Set(this.st.cellsThatMayHold(kind).concat(...makers.map((k) => this.st.cellsThatMayHold(k))))) {
      const left = this.pos(c, t - 1);
      const stays = this.s(c, kind, t - 1);
      if (stays !== FALSE) {
        addFolded(f, [not(stays), left, remains]);
        support.push(this.support(stays, not(left)));
      }
      for (const k of makers) {
        const made = this.s(c, k, t - 1);
        if (made === FALSE) continue;
        addFolded(f, [not(made), not(left), remains]);
        support.push(this.support(made, left));
      }
    }
    addFolded(f, [-remains, ...new Set(support)]);
  }

  /** "The move of step t leaves a green or blue tile" (the game then checks the board). */
  private firstCheck(t: number): number {
    const f = this.f;
    const check = f.pool.named('check', t);
    const support: number[] = [];
    for (const c of this.layers[t - 1]!) {
      const left = this.pos(c, t - 1);
      for (const k of [Tile.Green, Tile.Blue]) {
        const was = this.s(c, k, t - 1);
        addFolded(f, [not(left), not(was), check]);
        support.push(this.support(left, was));
      }
    }
    addFolded(f, [-check, ...support]);
    return check;
  }

  // ---- the moves ----

  private oracleAt(t: number): ChainOracle<number> {
    const table = this.M[t]!;
    return {
      kinds: (c) => this.st.kindsBy(c, t),
      is: (c, k) => this.tile(table, c, k),
      raised: (c) => (c === OFF_MAP ? FALSE : this.raisedIn(table, c, `m ${t}`)),
      water: (c) => this.tile(table, c, Tile.Water),
      antiIce: (landed) =>
        this.orOf(`anti ${t} ${landed.filter((c) => this.antiCells.includes(c)).join(' ')}`, [
          this.counter('anti', 1, t - 1),
          ...landed.filter((c) => this.antiCells.includes(c)).map((c) => this.itm(c, t - 1)),
        ]),
      not,
      never: (l) => l === FALSE,
      always: (l) => l === TRUE,
    };
  }

  private encodeMoves(t: number): void {
    const f = this.f;
    const oracle = this.oracleAt(t);
    const before = this.S[t - 1]!;
    const items = new Set([...this.antiCells, ...this.jumpCells]);
    for (const p of this.layers[t - 1]!) {
      const at = this.pos(p, t - 1);
      const high = this.raisedIn(before, p, `s ${t - 1}`);
      for (let a = 0; a < this.actions; a++) {
        const base = [not(at), -this.act(a, t)];
        const d = a === JUMP ? undefined : (a as Direction);
        const q = d === undefined ? p : stepFrom(p, d);
        if (d !== undefined) {
          if (this.tile(before, q, Tile.Water) === TRUE) {
            addFolded(f, base);
            continue;
          }
          addFolded(f, [...base, not(this.tile(before, q, Tile.Water))]);
          addFolded(f, [...base, high, not(this.raisedIn(before, q, `s ${t - 1}`))]);
        }
        for (const h of [true, false]) {
          const hl = h ? high : not(high);
          if (hl === FALSE) continue;
          for (const branch of chainBranches(q, d, h, oracle)) {
            const conds = [not(at), -this.act(a, t), not(hl), ...branch.conds.map(not)];
            if (branch.end !== 'death' && !this.st.inWindow(branch.end)) {
              const out = this.andOf(
                `out ${t} ${p} ${a} ${h} ${branch.conds.join(' ')} ${branch.end}`,
                conds.map(not),
              );
              this.addLeak(t, out);
              continue;
            }
            const end = branch.end === 'death' ? [] : [this.pos(branch.end, t)];
            addFolded(f, [...conds, ...end]);
            if (branch.end === 'death') continue;
            // A boat that floated carries the player away from the cell landed on.
            const landedOn = branch.path.at(-1) === branch.end ? branch.path.slice(0, -1) : branch.path;
            const passed = landedOn.filter((c) => items.has(c));
            if (passed.length === 0) continue;
            const lit = this.andOf(
              `branch ${t} ${p} ${a} ${h} ${branch.conds.join(' ')} ${branch.end}`,
              conds.map(not),
            );
            for (const c of passed) {
              let list = this.passes.get(c);
              if (list === undefined) this.passes.set(c, (list = []));
              list.push(lit);
            }
          }
        }
      }
    }
  }

  // ---- items ----

  private itm(cell: number, t: number): number {
    if (t === 0) return TRUE;
    if (this.st.firstLanding(cell) > t) return TRUE;
    return this.f.pool.named('itm', cellX(cell), cellY(cell), t);
  }

  /** Unary counter: "the player holds at least k items of `kind`" after step t. */
  private counter(kind: 'anti' | 'jump', k: number, t: number): number {
    const n = kind === 'anti' ? this.antiCells.length : this.jumpCells.length;
    if (k <= 0) return TRUE;
    if (k > n || t <= 0) return FALSE;
    return this.f.pool.named(kind, k, t);
  }

  /** "The move of step t lands on `cell` (so it takes the item there)". */
  private visit(cell: number, t: number): number {
    const final = this.andOf(`final ${cell} ${t}`, [
      this.pos(cell, t),
      this.moved(t),
      not(this.m(cell, Tile.Water, t)),
    ]);
    return this.orOf(`visit ${cell} ${t}`, [final, ...(this.passes.get(cell) ?? [])]);
  }

  private encodeItems(t: number): void {
    const f = this.f;
    const picks = new Map<number, number>();
    for (const c of [...this.antiCells, ...this.jumpCells]) {
      if (this.st.firstLanding(c) > t) continue;
      const before = this.itm(c, t - 1);
      const now = this.itm(c, t);
      const visit = this.visit(c, t);
      addFolded(f, [not(now), before]);
      addFolded(f, [not(now), not(visit)]);
      addFolded(f, [not(before), visit, now]);
      picks.set(c, this.andOf(`pick ${c} ${t}`, [before, visit]));
    }
    if (this.antiCells.length > 0) {
      const gained = this.addTo('anti', t, this.antiCells, picks, FALSE);
      const use = this.f.pool.named('deiced', t);
      this.antiHeld = gained(1);
      this.antiSpent = use;
      for (let k = 1; k <= this.antiCells.length; k++) {
        const now = this.counter('anti', k, t);
        const more = this.orOf(`anti ${k + 1} or ${t}`, [
          gained(k + 1),
          this.andOf(`anti ${k} kept ${t}`, [gained(k), not(use)]),
        ]);
        addFolded(f, [not(now), more]);
        addFolded(f, [now, not(more)]);
      }
    }
    if (this.jumpCells.length > 0) {
      const jumped = this.act(JUMP, t);
      const gained = this.addTo('jump', t, this.jumpCells, picks, jumped);
      for (let k = 1; k <= this.jumpCells.length; k++) {
        const now = this.counter('jump', k, t);
        const got = gained(k);
        addFolded(f, [not(now), got]);
        addFolded(f, [now, not(got)]);
      }
    }
  }

  /**
   * The count of `kind` items after step t's pickups (one spent first when `spent`): a unary
   * count built by one increment per item cell the move may land on.
   */
  private addTo(
    kind: 'anti' | 'jump',
    t: number,
    cells: number[],
    picks: Map<number, number>,
    spent: number,
  ): (k: number) => number {
    const n = cells.length;
    let count = (k: number): number =>
      spent === FALSE
        ? this.counter(kind, k, t - 1)
        : this.orOf(`${kind} spent ${k} ${t}`, [
            this.counter(kind, k + 1, t - 1),
            this.andOf(`${kind} unspent ${k} ${t}`, [this.counter(kind, k, t - 1), not(spent)]),
          ]);
    for (const c of cells) {
      const pick = picks.get(c);
      if (pick === undefined || pick === FALSE) continue;
      const prev = count;
      const rows = new Map<number, number>();
      for (let k = 1; k <= n; k++) {
        rows.set(
          k,
          this.orOf(`${kind} plus ${c} ${k} ${t}`, [
            prev(k),
            this.andOf(`${kind} up ${c} ${k} ${t}`, [prev(k - 1), pick]),
          ]),
        );
      }
      count = (k: number): number => (k <= 0 ? TRUE : k > n ? FALSE : rows.get(k)!);
    }
    const final = count;
    return (k: number): number => (k <= 0 ? TRUE : k > n ? FALSE : final(k));
  }

  // ---- phase 2: what the final tile does ----

  private addEvent(cell: number, event: CellEvent): void {
    // A cell with one possible tile is left as it is by every event (the analysis says so).
    if (event.lit === FALSE || this.st.kinds(cell).length === 1) return;
    let list = this.events.get(cell);
    if (list === undefined) this.events.set(cell, (list = []));
    list.push(event);
  }

  /** A laser shot of step t destroys cell x when one of `lits` holds. */
  private addDestroyed(x: number, t: number, lits: number[]): void {
    const lit = this.orOf(`destroyed ${x} ${t}`, lits);
    this.addEvent(x, { lit, to: () => Tile.Water });
    if (!this.choices.shotBudget || lit === FALSE || !GREENISH.some((k) => this.st.may(x, k))) return;
    let list = this.greensShot.get(t);
    if (list === undefined) this.greensShot.set(t, (list = []));
    list.push({ cell: x, lit });
  }

  private landed(cell: number, t: number): number {
    return this.andOf(`landed ${cell} ${t}`, [this.pos(cell, t), this.moved(t)]);
  }

  /** Lifts toggle and ice is de-iced under the player; builders and spinners change the neighbours. */
  private encodeLandingEffects(t: number): void {
    const f = this.f;
    const uses: number[] = [];
    for (const c of this.layers[t]!) {
      const kinds = this.st.kindsBy(c, t);
      if (kinds.some((k) => k === Tile.LiftDown || k === Tile.LiftUp)) {
        const lift = this.orOf(
          `lift ${c} ${t}`,
          LIFTS.map((k) => this.m(c, k, t)),
        );
        const toggle = this.andOf(`toggle ${c} ${t}`, [this.landed(c, t), lift]);
        this.addEvent(c, {
          lit: toggle,
          to: (k) => (k === Tile.LiftUp ? Tile.LiftDown : k === Tile.LiftDown ? Tile.LiftUp : k),
        });
      }
      if (kinds.includes(Tile.Ice) && this.antiCells.length > 0) {
        const deice = this.andOf(`deice ${c} ${t}`, [
          this.landed(c, t),
          this.m(c, Tile.Ice, t),
          not(this.act(JUMP, t)),
          this.antiHeld,
        ]);
        uses.push(deice);
        this.addEvent(c, { lit: deice, to: (k) => (k === Tile.Ice ? Tile.DeIced : k) });
      }
      if (kinds.includes(Tile.Builder)) {
        const build = this.andOf(`build ${c} ${t}`, [this.landed(c, t), this.m(c, Tile.Builder, t)]);
        this.secondChecks.push(build);
        for (const d of DIRECTIONS) {
          const n = stepFrom(c, d);
          if (n === OFF_MAP) continue;
          if (this.window !== undefined && !this.st.inWindow(n)) this.addLeak(t, build);
          this.addEvent(n, {
            lit: build,
            to: (k) => (k === Tile.Water ? Tile.Green : k === Tile.Green ? Tile.GreenWall : k),
          });
        }
      }
      if (kinds.includes(Tile.Spinner)) {
        const spin = this.andOf(`spin ${c} ${t}`, [this.landed(c, t), this.m(c, Tile.Spinner, t)]);
        for (const d of DIRECTIONS) {
          const n = stepFrom(c, d);
          const from = stepFrom(c, ((d + 5) % 6) as Direction);
          if (this.window !== undefined && !this.st.inWindow(n)) {
            // Off the map a tile is lost, as in the game, unless a board check would have to
            // notice it (green and blue tiles and walls): that case is left out, as a leak.
            const lost: readonly number[] | undefined =
              n === OFF_MAP ? [...GREENISH, Tile.Blue, Tile.BlueWall] : undefined;
            const kinds = this.st
              .kindsBy(from, t)
              .filter((k) => (lost ? lost.includes(k) : k !== Tile.Water));
            const tile = this.orOf(
              `spun out ${lost ? 'lost' : 'any'} ${from} ${t}`,
              kinds.map((k) => this.m(from, k, t)),
            );
            this.addLeak(t, this.andOf(`spin out ${c} ${d} ${t}`, [spin, tile]), n === OFF_MAP);
          }
          if (n === OFF_MAP) continue;
          this.addEvent(n, { lit: spin, from });
        }
      }
    }
    if (this.antiCells.length > 0) {
      const use = this.antiSpent;
      addFolded(f, [-use, ...uses]);
      for (const u of uses) addFolded(f, [not(u), use]);
    }
  }

  /**
   * Lasers: the one the player lands on fires in the direction of travel (all six on a jump); a
   * beam passes over water, is split by ice into the two directions 60 degrees off, and hits the
   * first other tile, destroying it (a laser hit explodes, destroying its six neighbours).
   */
  private encodeLasers(t: number): void {
    const lasers = this.layers[t]!.filter((c) => this.st.kindsBy(c, t).includes(Tile.Laser));
    if (lasers.length === 0) return;
    const fires = new Map<string, number>();
    const firing: { laser: number; lit: number }[] = [];
    for (const L of lasers) {
      const any = this.andOf(`fire ${L} ${t}`, [this.landed(L, t), this.m(L, Tile.Laser, t)]);
      this.secondChecks.push(any);
      if (this.lazyOrder) firing.push({ laser: L, lit: any });
      for (const d of DIRECTIONS) {
        const dir = this.orOf(`aim ${d} ${t}`, [this.act(d, t), this.act(JUMP, t)]);
        fires.set(`${stepFrom(L, d)} ${d}`, this.andOf(`fire ${L} ${d} ${t}`, [any, dir]));
      }
    }
    // The beam states reachable from the lasers, and their sources.
    const key = (x: number, d: number): string => `${x} ${d}`;
    const sources = new Map<string, [number, number, 'fire' | 'pass' | 'refract'][]>();
    const queue: [number, Direction][] = [];
    const push = (x: number, d: Direction, from: [number, number, 'fire' | 'pass' | 'refract']): void => {
      if (x === OFF_MAP) return;
      let list = sources.get(key(x, d));
      if (list === undefined) {
        sources.set(key(x, d), (list = []));
        queue.push([x, d]);
      }
      list.push(from);
    };
    for (const L of lasers) for (const d of DIRECTIONS) push(stepFrom(L, d), d, [L, d, 'fire']);
    for (let i = 0; i < queue.length; i++) {
      const [x, d] = queue[i]!;
      const kinds = this.st.kindsBy(x, t);
      if (kinds.includes(Tile.Water)) push(stepFrom(x, d), d, [x, d, 'pass']);
      if (kinds.includes(Tile.Ice)) {
        for (const r of [(d + 1) % 6, (d + 5) % 6] as Direction[]) push(stepFrom(x, r), r, [x, d, 'refract']);
      }
    }
    const beam = (x: number, d: number): number => this.f.pool.named('beam', d, cellX(x), cellY(x), t);
    const graph: BeamState[] = [];
    for (const [k, list] of sources) {
      const [x, d] = k.split(' ').map(Number) as [number, number];
      const reasons = list.map(([y, g, how]) => {
        if (how === 'fire') return { lit: fires.get(key(x, d))!, from: undefined, how };
        const through = how === 'pass' ? this.m(y, Tile.Water, t) : this.m(y, Tile.Ice, t);
        return {
          lit: this.andOf(`beam ${how} ${y} ${g} ${t}`, [beam(y, g), through]),
          through,
          from: key(y, g),
          how,
        };
      });
      const b = beam(x, d);
      for (const r of reasons) addFolded(this.f, [not(r.lit), b]);
      addFolded(this.f, [-b, ...reasons.map((r) => r.lit)]);
      graph.push({ key: k, lit: b, sources: reasons });
    }
    this.beams.push(graph);
    if (this.choices.beamRanks) this.rankIceBeams(t, graph, (x, d) => beam(x, d));
    const into = new Map<number, number[]>();
    for (const k of sources.keys()) {
      const [x, d] = k.split(' ').map(Number) as [number, number];
      let list = into.get(x);
      if (list === undefined) into.set(x, (list = []));
      list.push(beam(x, d));
    }
    const hit = new Map<number, number>();
    for (const [x, beams] of into) {
      hit.set(
        x,
        this.andOf(`hit ${x} ${t}`, [not(this.m(x, Tile.Water, t)), this.orOf(`beams ${x} ${t}`, beams)]),
      );
    }
    const destroyed = new Map<number, number[]>();
    const destroy = (x: number, lit: number): void => {
      if (x === OFF_MAP || lit === FALSE || this.st.kindsBy(x, t).every((k) => k === Tile.Water)) return;
      let list = destroyed.get(x);
      if (list === undefined) destroyed.set(x, (list = []));
      list.push(lit);
    };
    const explodes = new Map<number, number>();
    const hitLasers = new Map<number, number>();
    for (const [x, h] of hit) {
      destroy(x, this.andOf(`struck ${x} ${t}`, [h, not(this.m(x, Tile.Ice, t))]));
      const hitLaser = this.andOf(`explode ${x} ${t}`, [h, this.m(x, Tile.Laser, t)]);
      if (hitLaser === FALSE) continue;
      hitLasers.set(x, hitLaser);
      if (this.lazyOrder) explodes.set(x, this.f.pool.named('explode', cellX(x), cellY(x), t));
      else for (const d of DIRECTIONS) destroy(stepFrom(x, d), hitLaser);
    }
    if (this.lazyOrder) {
      // Explosions: a maximal set of hit lasers with no two neighbours; refine() orders them.
      for (const [x, e] of explodes) {
        addFolded(this.f, [-e, hitLasers.get(x)!]);
        const near = DIRECTIONS.map((d) => stepFrom(x, d)).filter((y) => explodes.has(y));
        for (const y of near) if (y > x) addFolded(this.f, [-e, -explodes.get(y)!]);
        addFolded(this.f, [not(hitLasers.get(x)!), e, ...near.map((y) => explodes.get(y)!)]);
      }
      this.shots.push({ t, firing, explode: explodes });
      for (const [x, explode] of explodes) for (const d of DIRECTIONS) destroy(stepFrom(x, d), explode);
    }
    for (const [x, lits] of destroyed) this.addDestroyed(x, t, lits);
  }

  /**
   * Well-founded beams: a beam state entering a cell that may be ice is on only if a laser's shot
   * reaches it. Its origins are found by walking back over water to a firing laser or to a beam
   * refracted by ice; within each strongly connected set of such states (the loops), a state
   * takes a binary rank and must be fed by an origin of lower rank, so no loop feeds itself.
   * Every other beam follows back in a straight line to a laser or to one of these states. The
   * game's beams always admit such ranks: in a loop, rank 0 for the states fed from outside it,
   * and otherwise one more than the lowest rank among the loop's states feeding it, which stays
   * below the loop's size.
   */
  private rankIceBeams(t: number, graph: BeamState[], beam: (x: number, d: number) => number): void {
    const byKey = new Map(graph.map((s) => [s.key, s]));
    const cellOf = (k: string): number => Number(k.split(' ')[0]);
    const isIce = (k: string): boolean => this.st.kindsBy(cellOf(k), t).includes(Tile.Ice);
    /** What feeds a state, over the `waters` it passes: a laser's shot, or the beam state `from` refracted by ice. */
    type Origin =
      { kind: 'shot'; lit: number; waters: number[] } | { kind: 'ice'; from: string; waters: number[] };
    const originsOf = (k: string, waters: number[]): Origin[] =>
      byKey.get(k)!.sources.flatMap((r): Origin[] => {
        if (r.from === undefined) return [{ kind: 'shot', lit: r.lit, waters }];
        if (r.how === 'pass') return originsOf(r.from, [...waters, cellOf(r.from)]);
        return [{ kind: 'ice', from: r.from, waters }];
      });
    const iceStates = graph.filter((s) => isIce(s.key)).map((s) => s.key);
    const origins = new Map(iceStates.map((k) => [k, originsOf(k, [])]));
    const components = stronglyConnected(iceStates, (k) =>
      origins.get(k)!.flatMap((o) => (o.kind === 'ice' ? [o.from] : [])),
    );
    for (const component of components) {
      if (component.length < 2) continue;
      const inside = new Set(component);
      const bits = Math.max(1, Math.ceil(Math.log2(component.length)));
      const rank = new Map(
        component.map((k) => [k, Array.from({ length: bits }, () => this.f.pool.fresh())]),
      );
      for (const k of component) {
        const [x, d] = k.split(' ').map(Number) as [number, number];
        const fed = origins.get(k)!.map((o) => {
          const waters = o.waters.map((y) => this.m(y, Tile.Water, t));
          if (o.kind === 'shot') return this.andOf(`fed ${k} ${o.waters.join(',')} ${t}`, [o.lit, ...waters]);
          const [y, g] = o.from.split(' ').map(Number) as [number, number];
          const via = [beam(y, g), this.m(y, Tile.Ice, t), ...waters];
          if (!inside.has(o.from)) return this.andOf(`fed ${k} ${o.from} ${t}`, via);
          const v = this.f.pool.fresh();
          for (const l of via) addFolded(this.f, [-v, l]);
          // Rank bits are stored most significant first.
          const [lower, higher] = [rank.get(o.from)!, rank.get(k)!];
          lessThan(
            this.f,
            v,
            bits,
            (i) => lower[bits - 1 - i]!,
            (i) => higher[bits - 1 - i]!,
          );
          return v;
        });
        addFolded(this.f, [-beam(x, d), ...fed]);
      }
    }
  }

  /**
   * Lasers where one shot may hit two neighbouring lasers. The game lists the hits in the order
   * its beams find them (the six directions in turn on a jump; at ice, the beam turned clockwise
   * first, then the other), then destroys them in that order: a hit laser explodes only if an
   * explosion before it has not already destroyed it. Here every beam a shot may send is a node
   * of a tree in that order (a beam reaching ice from a direction an ancestor took there stops,
   * as in the game); a cell's place is its first hit's node, and a laser's explosion is
   * blocked by the explosion of a neighbour placed before it.
   */
  private encodeLasersInOrder(t: number): void {
    const lasers = this.layers[t]!.filter((c) => this.st.kindsBy(c, t).includes(Tile.Laser));
    const destroyed = new Map<number, number[]>();
    for (const L of lasers) {
      const any = this.andOf(`fire ${L} ${t}`, [this.landed(L, t), this.m(L, Tile.Laser, t)]);
      this.secondChecks.push(any);
      const hits = rayTree(L, (x) => this.st.kindsBy(x, t));
      const lit = new Map<number, number>();
      const hitsOf = new Map<number, { node: number; lit: number }[]>();
      for (const h of hits) {
        const active =
          h.parent === undefined
            ? this.andOf(`fire ${L} ${h.dir} ${t}`, [
                any,
                this.orOf(`aim ${h.dir} ${t}`, [this.act(h.dir, t), this.act(JUMP, t)]),
              ])
            : lit.get(h.parent)!;
        const here = this.andOf(`ray ${L} ${h.node} ${t}`, [
          active,
          ...h.over.map((x) => this.m(x, Tile.Water, t)),
          not(this.m(h.cell, Tile.Water, t)),
        ]);
        // The children of this hit continue only from ice.
        lit.set(h.node, this.andOf(`ray ice ${L} ${h.node} ${t}`, [here, this.m(h.cell, Tile.Ice, t)]));
        let list = hitsOf.get(h.cell);
        if (list === undefined) hitsOf.set(h.cell, (list = []));
        list.push({ node: h.node, lit: here });
      }
      // First hits, in node order, and explosions blocked by earlier neighbours.
      const first: { node: number; cell: number; lit: number }[] = [];
      for (const [cell, list] of hitsOf) {
        list.forEach((h, i) => {
          const earlier = this.orOf(
            `ray earlier ${L} ${cell} ${i} ${t}`,
            list.slice(0, i).map((e) => e.lit),
          );
          first.push({
            node: h.node,
            cell,
            lit: this.andOf(`ray first ${L} ${h.node} ${t}`, [h.lit, not(earlier)]),
          });
        });
      }
      first.sort((a, b) => a.node - b.node);
      const explodes: { node: number; cell: number; lit: number }[] = [];
      for (const h of first) {
        if (!this.st.kindsBy(h.cell, t).includes(Tile.Laser)) continue;
        const near = new Set(DIRECTIONS.map((d) => stepFrom(h.cell, d)));
        const blocked = this.orOf(
          `ray blocked ${L} ${h.node} ${t}`,
          explodes.filter((e) => near.has(e.cell)).map((e) => e.lit),
        );
        explodes.push({
          node: h.node,
          cell: h.cell,
          lit: this.andOf(`ray explode ${L} ${h.node} ${t}`, [
            h.lit,
            this.m(h.cell, Tile.Laser, t),
            not(blocked),
          ]),
        });
      }
      const destroy = (x: number, l: number): void => {
        if (x === OFF_MAP || l === FALSE || this.st.kindsBy(x, t).every((k) => k === Tile.Water)) return;
        let list = destroyed.get(x);
        if (list === undefined) destroyed.set(x, (list = []));
        list.push(l);
      };
      for (const [cell, list] of hitsOf) {
        const hit = this.orOf(
          `ray hit ${L} ${cell} ${t}`,
          list.map((h) => h.lit),
        );
        destroy(cell, this.andOf(`ray struck ${L} ${cell} ${t}`, [hit, not(this.m(cell, Tile.Ice, t))]));
      }
      for (const e of explodes) for (const d of DIRECTIONS) destroy(stepFrom(e.cell, d), e.lit);
    }
    for (const [x, lits] of destroyed) this.addDestroyed(x, t, lits);
  }

  /** A boat the player lands on floats in the direction of travel until land is next. */
  private encodeBoats(t: number): void {
    const boats = this.st
      .cellsThatMayHold(Tile.Boat)
      .filter((c) => this.st.firstLanding(c) <= t && this.st.kindsBy(c, t).includes(Tile.Boat));
    for (const c of boats) {
      const departures: number[] = [];
      for (const d of DIRECTIONS) {
        const wet: number[] = [];
        for (
          let q = stepFrom(c, d);
          q !== OFF_MAP && this.st.kindsBy(q, t).includes(Tile.Water);
          q = stepFrom(q, d)
        ) {
          wet.push(this.m(q, Tile.Water, t));
          if (!this.layerSets[t]!.has(q)) continue;
          departures.push(
            this.andOf(`sail ${c} ${q} ${t}`, [
              this.act(d, t),
              this.pos(q, t),
              this.moved(t),
              this.m(c, Tile.Boat, t),
              ...wet,
            ]),
          );
        }
      }
      this.addEvent(c, {
        lit: this.orOf(`sailed ${c} ${t}`, departures),
        to: (k) => (k === Tile.Boat ? Tile.Water : k),
      });
    }
    for (const q of this.layers[t]!) {
      if (!this.st.kindsBy(q, t).includes(Tile.Water) || !this.st.kindsBy(q, t).includes(Tile.Boat)) continue;
      const arrived = this.andOf(`moored ${q} ${t}`, [this.landed(q, t), this.m(q, Tile.Water, t)]);
      this.addEvent(q, { lit: arrived, to: (k) => (k === Tile.Water ? Tile.Boat : k) });
    }
  }

  private encodeEffects(t: number): void {
    const f = this.f;
    const mid = this.M[t]!;
    const table: Table = new Map(mid);
    this.E.push(table);
    for (const c of this.events.keys()) table.set(c, this.freshRow('e', c, t));
    for (const [c, list] of this.events) {
      if (!this.changesByEffect.has(c)) throw new Error(`cell ${c} changes by an effect the analysis missed`);
      for (const ev of list) {
        const source = ev.from ?? c;
        for (const k of this.st.kindsBy(source, t)) {
          const was = this.tile(mid, source, k);
          if (was === FALSE) continue;
          addFolded(f, [not(ev.lit), not(was), this.tile(table, c, ev.to === undefined ? k : ev.to(k))]);
        }
      }
    }
    for (const [c, list] of this.events) {
      const touched = this.orOf(
        `touched ${c} ${t}`,
        list.map((ev) => ev.lit),
      );
      for (const k of this.st.kindsBy(c, t)) {
        const was = this.tile(mid, c, k);
        if (was === FALSE) continue;
        addFolded(f, [not(was), touched, this.tile(table, c, k)]);
      }
      this.exactlyOne(table.get(c)!);
    }
  }

  // ---- phase 3: the board check after builders and lasers ----

  private encodeSecondCheck(t: number): void {
    const f = this.f;
    const effect = this.E[t]!;
    const table: Table = new Map(effect);
    this.S.push(table);
    const checks = this.secondChecks;
    this.secondChecks = [];
    if (this.changesBySecondCheck.size === 0 || checks.length === 0) return;
    for (const c of this.changesBySecondCheck) table.set(c, this.freshRow('s', c, t));
    const doneBefore = this.done(t - 1);
    const anyG = this.withGreenWalls ? this.remainsAfterEffect(t, Tile.Green) : TRUE;
    const anyB = this.withBlueWalls ? this.remainsAfterEffect(t, Tile.Blue) : TRUE;
    const check = this.blueWallsWaitForCheck ? this.orOf(`check2 ${t}`, checks) : TRUE;
    for (const c of this.changesBySecondCheck) {
      const next = (k: number): number => this.tile(table, c, k);
      for (const k of this.st.kindsBy(c, t)) {
        const was = this.tile(effect, c, k);
        if (was === FALSE) continue;
        addFolded(f, [not(was), not(doneBefore), next(k)]);
        if (k === Tile.GreenWall) {
          addFolded(f, [not(was), doneBefore, anyG, next(Tile.Green)]);
          addFolded(f, [not(was), not(anyG), next(k)]);
        } else if (k === Tile.BlueWall) {
          addFolded(f, [not(was), doneBefore, anyB, not(check), next(Tile.Blue)]);
          addFolded(f, [not(was), not(anyB), next(k)]);
          addFolded(f, [not(was), check, next(k)]);
        } else {
          addFolded(f, [not(was), next(k)]);
        }
      }
      this.exactlyOne(table.get(c)!);
    }
  }

  private remainsAfterEffect(t: number, kind: number): number {
    return this.orOf(
      `remains ${kind} ${t}`,
      this.st.cellsThatMayHold(kind).map((c) => this.e(c, kind, t)),
    );
  }

  /** The player never stands on water (a laser may destroy the tile underfoot). */
  private encodeNoWater(t: number): void {
    for (const c of this.layers[t]!) addFolded(this.f, [not(this.pos(c, t)), not(this.s(c, Tile.Water, t))]);
  }

  /**
   * escaped(t) <-> escaped(t - 1) or a leak of step t. A run that leaves the window is done there
   * (see encodeDone): the formula over-approximates the game, so UNSAT stays a proof, and `widen`
   * turns a model that left into a wider window.
   */
  private encodeEscape(t: number): void {
    const escaped = this.escaped(t);
    if (escaped === FALSE) return;
    const causes = [this.escaped(t - 1), ...this.leaks[t - 1]!.map((leak) => leak.lit)];
    addFolded(this.f, [-escaped, ...causes]);
    for (const c of causes) addFolded(this.f, [not(c), escaped]);
  }

  private encodeDone(t: number): void {
    const f = this.f;
    const done = this.done(t);
    const escaped = this.escaped(t);
    const remaining: number[] = [];
    for (const k of GREENISH) {
      for (const c of this.st.cellsThatMayHold(k)) {
        const lit = this.s(c, k, t);
        addFolded(f, [not(done), not(lit), escaped]);
        remaining.push(lit);
      }
    }
    addFolded(f, [done, ...remaining]);
    addFolded(f, [not(escaped), done]);
    if (t < this.winsBelow) addFolded(f, [not(done), escaped]);
    addFolded(f, [not(this.done(t - 1)), done]);
  }

  // ---- redundant constraints ----

  /** Green cells whose green can only go by being left there (no spinner or laser reaches them). */
  private stableGreens(): number[] {
    return this.dynamic.filter(
      (c) =>
        (this.st.may(c, Tile.Green) || this.st.may(c, Tile.GreenWall)) &&
        !this.st.spun.has(c) &&
        !this.st.laserHit.has(c),
    );
  }

  /**
   * Stepping between two inert cells changes nothing but the position, so a shortest plan never
   * steps from one to the other and straight back: ternary clauses per inert pair and step.
   */
  private encodeReturns(): void {
    const inert = (c: number): boolean => {
      const kinds = this.st.kinds(c);
      return (
        kinds.length === 1 && (kinds[0] === Tile.Normal || kinds[0] === Tile.Stone) && this.st.items[c] === 0
      );
    };
    for (let t = 1; t < this.T; t++) {
      for (const p of this.layers[t - 1]!) {
        if (!inert(p)) continue;
        for (const d of DIRECTIONS) {
          const q = stepFrom(p, d);
          if (q === OFF_MAP || !inert(q)) continue;
          addFolded(this.f, [not(this.pos(p, t - 1)), not(this.pos(q, t)), not(this.pos(p, t + 1))]);
        }
      }
    }
  }

  /**
   * A move onto a normal tile changes nothing but the position once its leave has acted, and the
   * leave does the same whichever way the player goes. So after leaving a onto normal tiles, the
   * board depends only on where the walk ends, as long as its last landing does not depend on the
   * direction of travel (IDLE_LANDINGS). A shortest plan, and of those the first in the order of
   * directions, therefore never steps from a normal a to b and straight back, never goes a -> b -> c
   * with c next to a (one move does that), and where both a -> b -> c and a -> b' -> c cross normal
   * tiles, takes the one whose first direction is lower; nor does it turn twice the same way in
   * three such moves (d, d + 1, d + 2), which end two moves of d + 1 away. Tiles are read after the
   * walk's first leave (its board check may turn tiles; nothing after it does), a's before it.
   */
  private encodeIdleSteps(): void {
    const f = this.winsOnly();
    for (let t = 1; t < this.T; t++) for (const a of this.layers[t - 1]!) this.encodeIdleWalks(f, a, t);
  }

  /** The clauses of encodeIdleSteps for walks from a, where the player stands at step t - 1. */
  private encodeIdleWalks(f: EncodingSink, a: number, t: number): void {
    const normal = (c: number, at = t): number =>
      c === OFF_MAP || this.st.items[c] !== 0 ? FALSE : this.s(c, Tile.Normal, at);
    for (const d1 of DIRECTIONS) {
      const b = stepFrom(a, d1);
      const nb = normal(b);
      if (nb === FALSE || this.pos(b, t) === FALSE) continue;
      const pair = [not(this.pos(a, t - 1)), not(this.pos(b, t)), not(nb)];
      for (const d2 of DIRECTIONS) {
        const turn = (d2 - d1 + 6) % 6;
        const c = stepFrom(b, d2);
        if (turn === 0 || c === OFF_MAP || this.pos(c, t + 1) === FALSE) continue;
        const end = not(this.pos(c, t + 1));
        if (turn === 3) {
          // Straight back onto a normal tile with nothing on it: two moves that change nothing.
          addFolded(f, [...pair, end, not(normal(a, t - 1))]);
          continue;
        }
        // 60 degrees apart, the other order crosses b' = a + d2: forbid the higher first direction.
        // 120 degrees apart, c is next to a: forbid the detour.
        const parallel = turn === 1 || turn === 5;
        if (parallel && d1 < d2) continue;
        const other = parallel ? normal(stepFrom(a, d2)) : TRUE;
        if (other === FALSE) continue;
        for (const lit of this.idleLandings(c, t)) addFolded(f, [...pair, end, not(other), not(lit)]);
      }
      // Three moves turning twice the same way (d, d + 1, d + 2, or d, d - 1, d - 2) end two moves
      // of d + 1 (or d - 1) away: forbidden where the cell between those two moves is normal.
      for (const turn of [1, 5]) {
        const d2 = ((d1 + turn) % 6) as Direction;
        const d3 = ((d1 + 2 * turn) % 6) as Direction;
        const c = stepFrom(b, d2);
        const e = stepFrom(c, d3);
        const nc = normal(c);
        const nm = normal(stepFrom(a, d2));
        if (nc === FALSE || nm === FALSE || e === OFF_MAP || t + 2 > this.T) continue;
        if (this.pos(c, t + 1) === FALSE || this.pos(e, t + 2) === FALSE) continue;
        const walk = [...pair, not(this.pos(c, t + 1)), not(this.pos(e, t + 2)), not(nc), not(nm)];
        for (const lit of this.idleLandings(e, t)) addFolded(f, [...walk, not(lit)]);
      }
    }
  }

  /** The literals "`cell` holds a tile of IDLE_LANDINGS after step t", one per such tile it may hold. */
  private idleLandings(cell: number, t: number): number[] {
    return IDLE_LANDINGS.map((k) => (this.st.may(cell, k) ? this.s(cell, k, t) : FALSE)).filter(
      (l) => l !== FALSE,
    );
  }

  /**
   * Without blue walls, builders, spinners or lasers, green walls come down at most once, all
   * together, when the last green tile is left; lowered(t) says it has happened by step t.
   */
  private encodePhases(): void {
    const f = this.f;
    let before = FALSE;
    for (let t = 1; t <= this.T; t++) {
      const lowered = f.pool.named('lowered', t);
      const anyG = f.pool.named('anyG', t);
      const doneBefore = this.done(t - 1);
      addFolded(f, [not(before), lowered]);
      addFolded(f, [doneBefore, anyG, lowered]);
      addFolded(f, [-lowered, before, not(doneBefore)]);
      addFolded(f, [-lowered, before, -anyG]);
      for (const c of this.dynamic) {
        const initial = this.initial[c];
        if (initial === Tile.Green) addFolded(f, [-lowered, not(this.s(c, Tile.Green, t))]);
        if (initial === Tile.GreenWall) {
          addFolded(f, [-lowered, not(this.s(c, Tile.GreenWall, t))]);
          addFolded(f, [not(this.s(c, Tile.Green, t)), lowered]);
        }
      }
      before = lowered;
    }
  }

  /** A green tile or wall at the start that cannot move or be destroyed must be left, so stood on before T. */
  private encodeVisits(): void {
    for (const c of this.stableGreens()) {
      if (this.initial[c] !== Tile.Green && this.initial[c] !== Tile.GreenWall) continue;
      const times = Array.from({ length: this.T }, (_, t) => this.pos(c, t));
      addFolded(this.winsOnly(), times);
    }
  }

  /**
   * Every move leaves one cell; each green tile or wall at the start, and each one made by
   * leaving a blue tile or wall (or by a builder), must be left once while green. So the moves of
   * steps 1..T that leave anything else, counted twice when they leave blue, are at most T -
   * greens (without lasers, the only way a green goes otherwise).
   */
  private encodeBudget(): void {
    const perShot = greensPerShot(this.st, this.jumpCells.length > 0);
    if (perShot === undefined) return;
    const f = this.winsOnly();
    let greens = 0;
    for (const c of this.dynamic)
      if (this.initial[c] === Tile.Green || this.initial[c] === Tile.GreenWall) greens++;
    const spent: number[] = [];
    for (let t = 1; t <= this.T; t++) {
      const doneBefore = this.done(t - 1);
      const waste = f.pool.named('waste', t);
      const blue = f.pool.named('blueLeft', t);
      spent.push(waste, blue);
      for (const c of this.layers[t - 1]!) {
        const at = this.pos(c, t - 1);
        addFolded(f, [
          not(at),
          doneBefore,
          this.s(c, Tile.Green, t - 1),
          this.s(c, Tile.GreenWall, t - 1),
          waste,
        ]);
        for (const k of [Tile.Blue, Tile.BlueWall])
          addFolded(f, [not(at), doneBefore, not(this.s(c, k, t - 1)), blue]);
      }
    }
    // Each green a shot destroys is one the moves need not leave. Per step, credit j says "its
    // shot destroyed at least j greens" (up to what one shot may destroy); the budget grows by
    // the credits a step may earn, and each credit not earned counts as a move spent.
    let credits = 0;
    for (const [t, kills] of this.greensShot) {
      const most = Math.min(perShot, kills.length);
      const single = most === 1 ? f.pool.named('shotCredit', t) : undefined;
      const greensHit = kills.map(({ cell, lit }) => {
        const hit = f.pool.named('shotGreen', cellX(cell), cellY(cell), t);
        addFolded(this.f, [-hit, lit]);
        addFolded(this.f, [-hit, ...GREENISH.map((k) => this.m(cell, k, t))]);
        return hit;
      });
      // One credit is one clause; more take a counter's outputs, each true only with that many hits.
      if (single !== undefined) addFolded(this.f, [-single, ...greensHit]);
      const earned =
        single !== undefined
          ? [single]
          : sequentialCounter(this.f, greensHit, { bounds: 'lower', limit: most });
      for (const credit of earned) {
        spent.push(-credit);
        credits++;
      }
    }
    const budget = this.T - greens + credits;
    if (budget < 0) f.add([]);
    else if (budget === 0) for (const l of spent) f.add([-l]);
    else if (budget < spent.length) sequentialAtMostK(f, spent, budget);
  }

  /**
   * A green tile or wall that no spinner can move, still there at t, must still be left or
   * destroyed: the player's cell at t lies within T - 1 - t (over-approximate) moves of it, or
   * within T - t moves of a laser whose beams (or whose explosion next to it) may reach it.
   */
  private encodeDeadlines(): void {
    const f = this.winsOnly();
    const greens = this.dynamic.filter(
      (c) => (this.st.may(c, Tile.Green) || this.st.may(c, Tile.GreenWall)) && !this.st.spun.has(c),
    );
    const distances = new Map<number, Map<number, number>>();
    for (const p of this.layers[this.T]!) distances.set(p, this.st.distancesFrom(p));
    for (const c of greens) {
      const from = this.st.destroyers(c);
      for (let t = 1; t < this.T; t++) {
        const slack = this.T - 1 - t;
        const alive = GREENISH.map((k) => this.s(c, k, t)).filter((l) => l !== FALSE);
        if (alive.length === 0) continue;
        for (const p of this.layers[t]!) {
          const near = distances.get(p)!;
          const d = near.get(c) ?? Number.POSITIVE_INFINITY;
          if (d <= slack) continue;
          if (from.some((L) => (near.get(L) ?? Number.POSITIVE_INFINITY) <= slack + 1)) continue;
          for (const lit of alive) addFolded(f, [not(this.pos(p, t)), not(lit)]);
        }
      }
    }
  }
}
