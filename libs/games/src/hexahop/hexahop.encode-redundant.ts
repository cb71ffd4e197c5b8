import { type EncodingSink, sequentialAtMostK, sequentialCounter } from '@satfarm/cnf';

import { addFolded, FALSE, GREENISH, type HexahopEncoding, not, TRUE } from './hexahop.encode-context.js';
import type { GreenShot } from './hexahop.encode-lasers.js';
import { cellX, cellY, type Direction, DIRECTIONS, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { greensPerShot } from './hexahop.lower-bound.js';
import { Tile } from './hexahop.model.js';

/*
 * Redundant constraints: clauses every shortest win satisfies, which the game's rules alone
 * would leave the solver to find. Each is an encoding choice; why each holds: docs/hexahop.md,
 * "Redundant constraints". With a window, those true of wins only go through `winsOnly`.
 */

/** Floor tiles whose landing does the same from every direction (see encodeIdleSteps). */
const IDLE_LANDINGS: readonly number[] = [
  Tile.Normal,
  Tile.Green,
  Tile.Blue,
  Tile.Spinner,
  Tile.Builder,
  Tile.LiftDown,
];

/** Green cells whose green can only go by being left there (no spinner or laser reaches them). */
function stableGreens(enc: HexahopEncoding): number[] {
  const statics = enc.statics;
  return enc.changingCells.filter(
    (c) =>
      (statics.may(c, Tile.Green) || statics.may(c, Tile.GreenWall)) &&
      !statics.spun.has(c) &&
      !statics.laserHit.has(c),
  );
}

/** Never from an inert cell to an inert neighbour and straight back: ternary clauses per pair and step. */
export function encodeReturns(enc: HexahopEncoding): void {
  const statics = enc.statics;
  const inert = (c: number): boolean => {
    const kinds = statics.kinds(c);
    return (
      kinds.length === 1 && (kinds[0] === Tile.Normal || kinds[0] === Tile.Stone) && statics.items[c] === 0
    );
  };
  for (let t = 1; t < enc.horizon; t++) {
    for (const p of enc.reachable[t - 1]!) {
      if (!inert(p)) continue;
      for (const d of DIRECTIONS) {
        const q = stepFrom(p, d);
        if (q === OFF_MAP || !inert(q)) continue;
        addFolded(enc.formula, [
          not(enc.position(p, t - 1)),
          not(enc.position(q, t)),
          not(enc.position(p, t + 1)),
        ]);
      }
    }
  }
}

/**
 * Walks of two or three moves onto normal tiles that a shorter walk, or the same walk in the
 * lower order of directions, does the same as: straight back, round to a neighbour, the later of
 * two orders, and two turns the same way.
 */
export function encodeIdleSteps(enc: HexahopEncoding): void {
  const sink = enc.winsOnly();
  for (let t = 1; t < enc.horizon; t++)
    for (const a of enc.reachable[t - 1]!) encodeIdleWalks(enc, sink, a, t);
}

/** The clauses of encodeIdleSteps for walks from a, where the player stands at step t - 1. */
function encodeIdleWalks(enc: HexahopEncoding, sink: EncodingSink, a: number, t: number): void {
  // Tiles are read after the walk's first leave (its board check may turn tiles; nothing after
  // it does), a's before it.
  const normal = (c: number, at = t): number =>
    c === OFF_MAP || enc.statics.items[c] !== 0 ? FALSE : enc.afterStep(c, Tile.Normal, at);
  for (const d1 of DIRECTIONS) {
    const b = stepFrom(a, d1);
    const normalB = normal(b);
    if (normalB === FALSE || enc.position(b, t) === FALSE) continue;
    const pair = [not(enc.position(a, t - 1)), not(enc.position(b, t)), not(normalB)];
    for (const d2 of DIRECTIONS) {
      const turn = (d2 - d1 + 6) % 6;
      const c = stepFrom(b, d2);
      if (turn === 0 || c === OFF_MAP || enc.position(c, t + 1) === FALSE) continue;
      const end = not(enc.position(c, t + 1));
      if (turn === 3) {
        // Straight back onto a normal tile with nothing on it: two moves that change nothing.
        addFolded(sink, [...pair, end, not(normal(a, t - 1))]);
        continue;
      }
      // 60 degrees apart, the other order crosses b' = a + d2: forbid the higher first direction.
      // 120 degrees apart, c is next to a: forbid the detour.
      const parallel = turn === 1 || turn === 5;
      if (parallel && d1 < d2) continue;
      const other = parallel ? normal(stepFrom(a, d2)) : TRUE;
      if (other === FALSE) continue;
      for (const lit of idleLandings(enc, c, t)) addFolded(sink, [...pair, end, not(other), not(lit)]);
    }
    // Three moves turning twice the same way (d, d + 1, d + 2, or d, d - 1, d - 2) end two moves
    // of d + 1 (or d - 1) away: forbidden where the cell between those two moves is normal.
    for (const turn of [1, 5]) {
      const d2 = ((d1 + turn) % 6) as Direction;
      const d3 = ((d1 + 2 * turn) % 6) as Direction;
      const c = stepFrom(b, d2);
      const e = stepFrom(c, d3);
      const normalC = normal(c);
      const normalBetween = normal(stepFrom(a, d2));
      if (normalC === FALSE || normalBetween === FALSE || e === OFF_MAP || t + 2 > enc.horizon) continue;
      if (enc.position(c, t + 1) === FALSE || enc.position(e, t + 2) === FALSE) continue;
      const walk = [
        ...pair,
        not(enc.position(c, t + 1)),
        not(enc.position(e, t + 2)),
        not(normalC),
        not(normalBetween),
      ];
      for (const lit of idleLandings(enc, e, t)) addFolded(sink, [...walk, not(lit)]);
    }
  }
}

/** The literals "`cell` holds a tile of IDLE_LANDINGS after step t", one per such tile it may hold. */
function idleLandings(enc: HexahopEncoding, cell: number, t: number): number[] {
  return IDLE_LANDINGS.map((k) => (enc.statics.may(cell, k) ? enc.afterStep(cell, k, t) : FALSE)).filter(
    (l) => l !== FALSE,
  );
}

/**
 * Without blue walls, builders, spinners or lasers, green walls come down at most once, all
 * together, when the last green tile is left; lowered(t) says it has happened by step t.
 */
export function encodePhases(enc: HexahopEncoding): void {
  const formula = enc.formula;
  let before = FALSE;
  for (let t = 1; t <= enc.horizon; t++) {
    const lowered = formula.pool.named('lowered', t);
    const anyGreen = formula.pool.named('anyG', t);
    const doneBefore = enc.done(t - 1);
    addFolded(formula, [not(before), lowered]);
    addFolded(formula, [doneBefore, anyGreen, lowered]);
    addFolded(formula, [-lowered, before, not(doneBefore)]);
    addFolded(formula, [-lowered, before, -anyGreen]);
    for (const c of enc.changingCells) {
      const initial = enc.initialTiles[c];
      if (initial === Tile.Green) addFolded(formula, [-lowered, not(enc.afterStep(c, Tile.Green, t))]);
      if (initial === Tile.GreenWall) {
        addFolded(formula, [-lowered, not(enc.afterStep(c, Tile.GreenWall, t))]);
        addFolded(formula, [not(enc.afterStep(c, Tile.Green, t)), lowered]);
      }
    }
    before = lowered;
  }
}

/** A green tile or wall at the start that cannot move or be destroyed must be left, so stood on before T. */
export function encodeVisits(enc: HexahopEncoding): void {
  for (const c of stableGreens(enc)) {
    if (enc.initialTiles[c] !== Tile.Green && enc.initialTiles[c] !== Tile.GreenWall) continue;
    const times = Array.from({ length: enc.horizon }, (_, t) => enc.position(c, t));
    addFolded(enc.winsOnly(), times);
  }
}

/**
 * The move budget: the moves of steps 1..T that leave no green, counted twice when they leave
 * blue, are at most T minus the greens, plus one per credit a step's shot may earn by destroying
 * greens (`greensShot`, with shotBudget); a credit not earned counts as spent.
 */
export function encodeBudget(enc: HexahopEncoding, greensShot: Map<number, GreenShot[]>): void {
  const perShot = greensPerShot(enc.statics, enc.jumpCells.length > 0);
  if (perShot === undefined) return;
  const formula = enc.formula;
  const sink = enc.winsOnly();
  let greens = 0;
  for (const c of enc.changingCells)
    if (enc.initialTiles[c] === Tile.Green || enc.initialTiles[c] === Tile.GreenWall) greens++;
  const spent: number[] = [];
  for (let t = 1; t <= enc.horizon; t++) {
    const doneBefore = enc.done(t - 1);
    const waste = sink.pool.named('waste', t);
    const blue = sink.pool.named('blueLeft', t);
    spent.push(waste, blue);
    for (const c of enc.reachable[t - 1]!) {
      const at = enc.position(c, t - 1);
      addFolded(sink, [
        not(at),
        doneBefore,
        enc.afterStep(c, Tile.Green, t - 1),
        enc.afterStep(c, Tile.GreenWall, t - 1),
        waste,
      ]);
      for (const k of [Tile.Blue, Tile.BlueWall])
        addFolded(sink, [not(at), doneBefore, not(enc.afterStep(c, k, t - 1)), blue]);
    }
  }
  // Credit j of a step: "its shot destroyed at least j greens", up to what one shot may destroy.
  let credits = 0;
  for (const [t, kills] of greensShot) {
    const most = Math.min(perShot, kills.length);
    const single = most === 1 ? formula.pool.named('shotCredit', t) : undefined;
    const greensHit = kills.map(({ cell, lit }) => {
      const hit = formula.pool.named('shotGreen', cellX(cell), cellY(cell), t);
      addFolded(formula, [-hit, lit]);
      addFolded(formula, [-hit, ...GREENISH.map((k) => enc.afterLeave(cell, k, t))]);
      return hit;
    });
    // One credit is one clause; more take a counter's outputs, each true only with that many hits.
    if (single !== undefined) addFolded(formula, [-single, ...greensHit]);
    const earned =
      single !== undefined
        ? [single]
        : sequentialCounter(formula, greensHit, { bounds: 'lower', limit: most });
    for (const credit of earned) {
      spent.push(-credit);
      credits++;
    }
  }
  const budget = enc.horizon - greens + credits;
  if (budget < 0) sink.add([]);
  else if (budget === 0) for (const l of spent) sink.add([-l]);
  else if (budget < spent.length) sequentialAtMostK(sink, spent, budget);
}

/**
 * A green tile or wall that no spinner can move, still there at t, must still be left or
 * destroyed: the player's cell at t lies within T - 1 - t (over-approximate) moves of it, or
 * within T - t moves of a laser whose beams (or whose explosion next to it) may reach it.
 */
export function encodeDeadlines(enc: HexahopEncoding): void {
  const statics = enc.statics;
  const sink = enc.winsOnly();
  const greens = enc.changingCells.filter(
    (c) => (statics.may(c, Tile.Green) || statics.may(c, Tile.GreenWall)) && !statics.spun.has(c),
  );
  const distances = new Map<number, Map<number, number>>();
  for (const p of enc.reachable[enc.horizon]!) distances.set(p, statics.distancesFrom(p));
  for (const c of greens) {
    const destroyers = statics.destroyers(c);
    for (let t = 1; t < enc.horizon; t++) {
      const slack = enc.horizon - 1 - t;
      const alive = GREENISH.map((k) => enc.afterStep(c, k, t)).filter((l) => l !== FALSE);
      if (alive.length === 0) continue;
      for (const p of enc.reachable[t]!) {
        const near = distances.get(p)!;
        const d = near.get(c) ?? Number.POSITIVE_INFINITY;
        if (d <= slack) continue;
        if (destroyers.some((laser) => (near.get(laser) ?? Number.POSITIVE_INFINITY) <= slack + 1)) continue;
        for (const lit of alive) addFolded(sink, [not(enc.position(p, t)), not(lit)]);
      }
    }
  }
}
