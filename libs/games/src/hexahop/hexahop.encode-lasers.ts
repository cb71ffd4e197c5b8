import { lessThan, type Lit } from '@satfarm/cnf';

import {
  addFolded,
  type EncodingStep,
  FALSE,
  GREENISH,
  type HexahopEncoding,
  JUMP,
  not,
  TRUE,
} from './hexahop.encode-context.js';
import { cellX, cellY, type Direction, DIRECTIONS, OFF_MAP, stepFrom } from './hexahop.geometry.js';
import { explodingLasers, Tile, traceShot } from './hexahop.model.js';
import { rayTree } from './hexahop.statics.js';

/*
 * Lasers: the one the player lands on fires in the direction of travel (all six on a jump); a
 * beam passes over water, is split by ice into the two directions 60 degrees off, and hits the
 * first other tile, destroying it (a laser hit explodes, destroying its six neighbours). Why the
 * beams, ranks and lazy order are exact: docs/hexahop.md, "Lasers".
 */

/** What a laser shot tells apart on a cell: water, ice, a laser, or (none of these) another tile. */
const SHOT_CLASSES: readonly number[] = [Tile.Water, Tile.Ice, Tile.Laser];

type BeamHow = 'fire' | 'pass' | 'refract';

/** One beam state of a step ("a beam enters cell x going in direction d") and its sources. */
interface BeamState {
  key: string;
  lit: number;
  /** Fired there by a laser (no `from`), or carried from state `from` over water or ice (`through`). */
  sources: { lit: number; through?: number; from: string | undefined; how: BeamHow }[];
}

/** The shot of one step where its explosions are left to `refine` (lazyOrder). */
interface LaserShot {
  t: number;
  /** Per laser the player may land on: "it fires at step t". */
  firing: { laser: number; lit: number }[];
  /** Per hit cell that may be a laser: "it explodes". */
  explode: Map<number, number>;
}

/** A cell that may be green which a shot may destroy, and the literal that says it does. */
export interface GreenShot {
  cell: number;
  lit: number;
}

/** What the laser steps of one encoding leave for `refine` and for the move budget. */
export class LaserRecord {
  /** Per step with lasers, its beam states, for the loop check of `refine`. */
  readonly beams: BeamState[][] = [];
  /** Per step with lasers (lazyOrder): what `refine` replays. */
  readonly shots: LaserShot[] = [];
  /** Per step (with shotBudget): the greens its shot may destroy. */
  readonly greensShot = new Map<number, GreenShot[]>();
}

/** The destruction events of step t's shot, per cell: the cell turns to water when one holds. */
function addDestroyed(
  enc: HexahopEncoding,
  step: EncodingStep,
  record: LaserRecord,
  destroyed: Map<number, number[]>,
): void {
  const { t } = step;
  for (const [x, lits] of destroyed) {
    const lit = enc.orOf(`destroyed ${x} ${t}`, lits);
    enc.addEvent(step, x, { lit, to: () => Tile.Water });
    if (!enc.choices.shotBudget || lit === FALSE || !GREENISH.some((k) => enc.statics.may(x, k))) continue;
    let list = record.greensShot.get(t);
    if (list === undefined) record.greensShot.set(t, (list = []));
    list.push({ cell: x, lit });
  }
}

/** Collects, per cell, the literals under which step t's shot destroys it (never a cell that is always water). */
function destructions(
  enc: HexahopEncoding,
  t: number,
): {
  destroyed: Map<number, number[]>;
  destroy: (x: number, lit: number) => void;
} {
  const destroyed = new Map<number, number[]>();
  const destroy = (x: number, lit: number): void => {
    if (x === OFF_MAP || lit === FALSE || enc.statics.kindsBy(x, t).every((k) => k === Tile.Water)) return;
    let list = destroyed.get(x);
    if (list === undefined) destroyed.set(x, (list = []));
    list.push(lit);
  };
  return { destroyed, destroy };
}

/**
 * Step t's shot as a set of beam states (a beam is on iff one of its sources is), its hits a set;
 * where one shot may hit two neighbouring lasers (lazyOrder) the exploding lasers are a maximal
 * set with no two neighbours, and `refine` puts them in the game's order.
 */
export function encodeLasers(enc: HexahopEncoding, step: EncodingStep, record: LaserRecord): void {
  const { t } = step;
  const formula = enc.formula;
  const lasers = enc.reachable[t]!.filter((c) => enc.statics.kindsBy(c, t).includes(Tile.Laser));
  if (lasers.length === 0) return;
  const fires = new Map<string, number>();
  const firing: { laser: number; lit: number }[] = [];
  for (const laser of lasers) {
    const landedOnLaser = enc.andOf(`fire ${laser} ${t}`, [
      enc.landedOn(laser, t),
      enc.afterLeave(laser, Tile.Laser, t),
    ]);
    step.secondChecks.push(landedOnLaser);
    if (enc.lazyOrder) firing.push({ laser, lit: landedOnLaser });
    for (const d of DIRECTIONS) {
      const aimed = enc.orOf(`aim ${d} ${t}`, [enc.action(d, t), enc.action(JUMP, t)]);
      fires.set(`${stepFrom(laser, d)} ${d}`, enc.andOf(`fire ${laser} ${d} ${t}`, [landedOnLaser, aimed]));
    }
  }
  // The beam states reachable from the lasers, and their sources.
  const key = (x: number, d: number): string => `${x} ${d}`;
  const sources = new Map<string, [number, number, BeamHow][]>();
  const queue: [number, Direction][] = [];
  const push = (x: number, d: Direction, from: [number, number, BeamHow]): void => {
    if (x === OFF_MAP) return;
    let list = sources.get(key(x, d));
    if (list === undefined) {
      sources.set(key(x, d), (list = []));
      queue.push([x, d]);
    }
    list.push(from);
  };
  for (const laser of lasers) for (const d of DIRECTIONS) push(stepFrom(laser, d), d, [laser, d, 'fire']);
  for (let i = 0; i < queue.length; i++) {
    const [x, d] = queue[i]!;
    const kinds = enc.statics.kindsBy(x, t);
    if (kinds.includes(Tile.Water)) push(stepFrom(x, d), d, [x, d, 'pass']);
    if (kinds.includes(Tile.Ice)) {
      for (const r of [(d + 1) % 6, (d + 5) % 6] as Direction[]) push(stepFrom(x, r), r, [x, d, 'refract']);
    }
  }
  const beam = (x: number, d: number): number => formula.pool.named('beam', d, cellX(x), cellY(x), t);
  const graph: BeamState[] = [];
  for (const [k, list] of sources) {
    const [x, d] = k.split(' ').map(Number) as [number, number];
    const reasons = list.map(([y, g, how]) => {
      if (how === 'fire') return { lit: fires.get(key(x, d))!, from: undefined, how };
      const through = how === 'pass' ? enc.afterLeave(y, Tile.Water, t) : enc.afterLeave(y, Tile.Ice, t);
      return {
        lit: enc.andOf(`beam ${how} ${y} ${g} ${t}`, [beam(y, g), through]),
        through,
        from: key(y, g),
        how,
      };
    });
    const b = beam(x, d);
    for (const r of reasons) addFolded(formula, [not(r.lit), b]);
    addFolded(formula, [-b, ...reasons.map((r) => r.lit)]);
    graph.push({ key: k, lit: b, sources: reasons });
  }
  record.beams.push(graph);
  if (enc.choices.beamRanks) rankIceBeams(enc, t, graph, beam);
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
      enc.andOf(`hit ${x} ${t}`, [not(enc.afterLeave(x, Tile.Water, t)), enc.orOf(`beams ${x} ${t}`, beams)]),
    );
  }
  const { destroyed, destroy } = destructions(enc, t);
  const explodes = new Map<number, number>();
  const hitLasers = new Map<number, number>();
  for (const [x, h] of hit) {
    destroy(x, enc.andOf(`struck ${x} ${t}`, [h, not(enc.afterLeave(x, Tile.Ice, t))]));
    const hitLaser = enc.andOf(`explode ${x} ${t}`, [h, enc.afterLeave(x, Tile.Laser, t)]);
    if (hitLaser === FALSE) continue;
    hitLasers.set(x, hitLaser);
    if (enc.lazyOrder) explodes.set(x, formula.pool.named('explode', cellX(x), cellY(x), t));
    else for (const d of DIRECTIONS) destroy(stepFrom(x, d), hitLaser);
  }
  if (enc.lazyOrder) {
    // Explosions: a maximal set of hit lasers with no two neighbours; refine() orders them.
    for (const [x, e] of explodes) {
      addFolded(formula, [-e, hitLasers.get(x)!]);
      const near = DIRECTIONS.map((d) => stepFrom(x, d)).filter((y) => explodes.has(y));
      for (const y of near) if (y > x) addFolded(formula, [-e, -explodes.get(y)!]);
      addFolded(formula, [not(hitLasers.get(x)!), e, ...near.map((y) => explodes.get(y)!)]);
    }
    record.shots.push({ t, firing, explode: explodes });
    for (const [x, explode] of explodes) for (const d of DIRECTIONS) destroy(stepFrom(x, d), explode);
  }
  addDestroyed(enc, step, record, destroyed);
}

/**
 * Well-founded beams: within each loop of beam states entering cells that may be ice, each state
 * takes a binary rank and must be fed by an origin of lower rank (a shot reached over water, a
 * beam from outside the loop, or one of the loop's own), so no loop feeds itself.
 */
function rankIceBeams(
  enc: HexahopEncoding,
  t: number,
  graph: BeamState[],
  beam: (x: number, d: number) => number,
): void {
  const formula = enc.formula;
  const byKey = new Map(graph.map((s) => [s.key, s]));
  const cellOf = (k: string): number => Number(k.split(' ')[0]);
  const isIce = (k: string): boolean => enc.statics.kindsBy(cellOf(k), t).includes(Tile.Ice);
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
    const rank = new Map(component.map((k) => [k, Array.from({ length: bits }, () => formula.pool.fresh())]));
    for (const k of component) {
      const [x, d] = k.split(' ').map(Number) as [number, number];
      const fed = origins.get(k)!.map((o) => {
        const waters = o.waters.map((y) => enc.afterLeave(y, Tile.Water, t));
        if (o.kind === 'shot') return enc.andOf(`fed ${k} ${o.waters.join(',')} ${t}`, [o.lit, ...waters]);
        const [y, g] = o.from.split(' ').map(Number) as [number, number];
        const via = [beam(y, g), enc.afterLeave(y, Tile.Ice, t), ...waters];
        if (!inside.has(o.from)) return enc.andOf(`fed ${k} ${o.from} ${t}`, via);
        const v = formula.pool.fresh();
        for (const l of via) addFolded(formula, [-v, l]);
        // Rank bits are stored most significant first.
        const [lower, higher] = [rank.get(o.from)!, rank.get(k)!];
        lessThan(
          formula,
          v,
          bits,
          (i) => lower[bits - 1 - i]!,
          (i) => higher[bits - 1 - i]!,
        );
        return v;
      });
      addFolded(formula, [-beam(x, d), ...fed]);
    }
  }
}

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

/**
 * Step t's shot in the game's order: every beam a shot may send is a node of a tree (rayTree) in
 * the order the game finds its hits, and a hit laser explodes unless the explosion of a neighbour
 * placed before it has destroyed it.
 */
export function encodeLasersInOrder(enc: HexahopEncoding, step: EncodingStep, record: LaserRecord): void {
  const { t } = step;
  const lasers = enc.reachable[t]!.filter((c) => enc.statics.kindsBy(c, t).includes(Tile.Laser));
  const { destroyed, destroy } = destructions(enc, t);
  for (const laser of lasers) {
    const landedOnLaser = enc.andOf(`fire ${laser} ${t}`, [
      enc.landedOn(laser, t),
      enc.afterLeave(laser, Tile.Laser, t),
    ]);
    step.secondChecks.push(landedOnLaser);
    const hits = rayTree(laser, (x) => enc.statics.kindsBy(x, t));
    const lit = new Map<number, number>();
    const hitsOf = new Map<number, { node: number; lit: number }[]>();
    for (const h of hits) {
      const active =
        h.parent === undefined
          ? enc.andOf(`fire ${laser} ${h.dir} ${t}`, [
              landedOnLaser,
              enc.orOf(`aim ${h.dir} ${t}`, [enc.action(h.dir, t), enc.action(JUMP, t)]),
            ])
          : lit.get(h.parent)!;
      const here = enc.andOf(`ray ${laser} ${h.node} ${t}`, [
        active,
        ...h.over.map((x) => enc.afterLeave(x, Tile.Water, t)),
        not(enc.afterLeave(h.cell, Tile.Water, t)),
      ]);
      // The children of this hit continue only from ice.
      lit.set(
        h.node,
        enc.andOf(`ray ice ${laser} ${h.node} ${t}`, [here, enc.afterLeave(h.cell, Tile.Ice, t)]),
      );
      let list = hitsOf.get(h.cell);
      if (list === undefined) hitsOf.set(h.cell, (list = []));
      list.push({ node: h.node, lit: here });
    }
    // First hits, in node order, and explosions blocked by earlier neighbours.
    const first: { node: number; cell: number; lit: number }[] = [];
    for (const [cell, list] of hitsOf) {
      list.forEach((h, i) => {
        const earlier = enc.orOf(
          `ray earlier ${laser} ${cell} ${i} ${t}`,
          list.slice(0, i).map((e) => e.lit),
        );
        first.push({
          node: h.node,
          cell,
          lit: enc.andOf(`ray first ${laser} ${h.node} ${t}`, [h.lit, not(earlier)]),
        });
      });
    }
    first.sort((a, b) => a.node - b.node);
    const explodes: { node: number; cell: number; lit: number }[] = [];
    for (const h of first) {
      if (!enc.statics.kindsBy(h.cell, t).includes(Tile.Laser)) continue;
      const near = new Set(DIRECTIONS.map((d) => stepFrom(h.cell, d)));
      const blocked = enc.orOf(
        `ray blocked ${laser} ${h.node} ${t}`,
        explodes.filter((e) => near.has(e.cell)).map((e) => e.lit),
      );
      explodes.push({
        node: h.node,
        cell: h.cell,
        lit: enc.andOf(`ray explode ${laser} ${h.node} ${t}`, [
          h.lit,
          enc.afterLeave(h.cell, Tile.Laser, t),
          not(blocked),
        ]),
      });
    }
    for (const [cell, list] of hitsOf) {
      const hit = enc.orOf(
        `ray hit ${laser} ${cell} ${t}`,
        list.map((h) => h.lit),
      );
      destroy(
        cell,
        enc.andOf(`ray struck ${laser} ${cell} ${t}`, [hit, not(enc.afterLeave(cell, Tile.Ice, t))]),
      );
    }
    for (const e of explodes) for (const d of DIRECTIONS) destroy(stepFrom(e.cell, d), e.lit);
  }
  addDestroyed(enc, step, record, destroyed);
}

/**
 * The clauses a model of the laser steps breaks, which every real run satisfies: explosions out of
 * the game's order (lazyOrder), and beams held up by a loop of ice alone (their loop formula).
 */
export function laserCuts(
  enc: HexahopEncoding,
  record: LaserRecord,
  holds: (lit: number) => boolean,
): Lit[][] {
  const cuts: Lit[][] = [];
  for (const shot of record.shots) cuts.push(...orderShot(enc, shot, holds));
  for (const graph of record.beams) {
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
  return cuts;
}

/**
 * The explosions of a model's shot, replayed in the game's order over the model's tiles: where
 * they differ, the cut "with this laser and move, and these tiles on every cell the beams looked
 * at, this cell explodes (or not)".
 */
function orderShot(enc: HexahopEncoding, shot: LaserShot, holds: (lit: number) => boolean): Lit[][] {
  const { t } = shot;
  const fired = shot.firing.find((f) => holds(f.lit));
  if (fired === undefined) return [];
  const action = Array.from({ length: enc.actionCount }, (_, a) => a).find((a) => holds(enc.action(a, t)));
  if (action === undefined) throw new Error(`hexahop: a laser fires at step ${t} with no move`);
  const table = enc.leaveTables[t]!;
  const tileAt = (c: number): number => {
    if (c === OFF_MAP) return Tile.Water;
    const row = table.get(c);
    if (row === undefined) return enc.initialTiles[c]!;
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
  const reason = [not(fired.lit), not(enc.action(action, t))];
  for (const c of traced.read) {
    const k = tileAt(c);
    if (SHOT_CLASSES.includes(k)) reason.push(not(enc.afterLeave(c, k, t)));
    else reason.push(...SHOT_CLASSES.map((q) => enc.afterLeave(c, q, t)));
  }
  const cuts: Lit[][] = [];
  for (const [x, lit] of wrong) {
    const clause = [...reason, real.has(x) ? lit : -lit].filter((l) => l !== FALSE);
    if (!clause.includes(TRUE)) cuts.push([...new Set(clause)]);
  }
  return cuts;
}
