import { KissatRunner } from '@satfarm/solver';
import { describe, expect, it } from 'vitest';

import { encodeHexahop } from './hexahop.encode.js';
import { DIRECTION_NAMES, type MoveName } from './hexahop.geometry.js';
import { hexahopLowerBound } from './hexahop.lower-bound.js';
import { type HexahopInstance, HexahopSimulator, type HexahopSolution } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { verifyHexahop } from './hexahop.verify.js';

const sut = encodeHexahop;
const kissat = new KissatRunner();

/** Fewest moves to win, by breadth-first search over simulator states (undefined: never). */
function shortestWin(instance: HexahopInstance, cap = 200_000): MoveName[] | undefined {
  const start = new HexahopSimulator(instance);
  const seen = new Set([start.key()]);
  let frontier: { sim: HexahopSimulator; moves: MoveName[] }[] = [{ sim: start, moves: [] }];
  while (frontier.length > 0) {
    const next: typeof frontier = [];
    for (const { sim, moves } of frontier) {
      for (const m of DIRECTION_NAMES) {
        const after = sim.clone();
        if (!after.move(m).ok || after.dead) continue;
        if (after.won) return [...moves, m];
        const key = after.key();
        if (seen.has(key)) continue;
        seen.add(key);
        if (seen.size > cap) throw new Error('search space too large for a spec');
        next.push({ sim: after, moves: [...moves, m] });
      }
    }
    frontier = next;
  }
  return undefined;
}

async function solveAt(instance: HexahopInstance, t: number) {
  const encoded = sut(instance, t);
  const outcome = await kissat.solve({ formula: encoded.formula });
  return outcome.status === 'sat'
    ? { status: 'sat' as const, plan: encoded.decode(outcome.model) }
    : { status: outcome.status };
}

const map = (rows: string[], start: [number, number]): HexahopInstance =>
  parseHexahopInstance({ map: rows, start });

/** Small maps, each exercising some rules (rows are y, columns x; SE is one column right). */
const MAPS: Record<string, HexahopInstance> = {
  'green tiles around a floor tile': map(['.ggg.', 'gg.gg', '.gog.'], [2, 2]),
  'blue tiles and a blue wall': map(['bgbo', 'gBgb', '.gg.'], [3, 0]),
  'green walls and a stone wall': map(['#gog', 'GGo.'], [0, 0]),
  'trampolines, walls and a chain': map(['ogTgo', 'g#.Tg', 'gTTgg'], [0, 0]),
  'lifts up and down and a trampoline': map(['glgH', 'oHgo', 'ggTg'], [0, 1]),
  'lifts and a stone wall': map(['ogl', 'gHg', '#gg'], [0, 0]),
  'ice slides': map(['gIIg', 'o.Ig', 'ggg#'], [0, 1]),
};

describe(encodeHexahop.name, () => {
  for (const [what, instance] of Object.entries(MAPS)) {
    it(`finds the shortest win on a map with ${what}, as a search of the simulator does`, async () => {
      const best = shortestWin(instance);
      expect(best, 'the map is winnable').toBeDefined();
      const optimum = best!.length;
      const atOptimum = await solveAt(instance, optimum);
      expect(atOptimum.status).toBe('sat');
      const plan = (atOptimum as { plan: { moves: MoveName[]; score: number } }).plan;
      expect(plan.moves).toHaveLength(optimum);
      expect(verifyHexahop(instance, plan, optimum)).toEqual({ ok: true, cost: optimum });
      if (optimum - 1 >= 0) expect((await solveAt(instance, optimum - 1)).status).toBe('unsat');
      const later = await solveAt(instance, optimum + 2);
      expect(later.status).toBe('sat');
      expect(
        verifyHexahop(instance, (later as { plan: { moves: MoveName[]; score: number } }).plan, optimum + 2)
          .ok,
      ).toBe(true);
    });
  }

  it('agrees with the search on random small maps of every supported tile', async () => {
    let seed = 20261122;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    const chars = 'ggggggoooGGbbBTT#Il.H';
    let winnable = 0;
    for (let n = 0; n < 16; n++) {
      const width = 3 + random(3);
      const rows = Array.from({ length: 2 + random(2) }, () =>
        Array.from({ length: width }, () => chars[random(chars.length)]).join(''),
      );
      const [sx, sy] = [random(width), random(rows.length)];
      rows[sy] = `${rows[sy]!.slice(0, sx)}o${rows[sy]!.slice(sx + 1)}`;
      if (!rows.join('').includes('g')) continue;
      const instance = map(rows, [sx, sy]);
      const best = shortestWin(instance);
      const where = `${JSON.stringify(rows)} from (${sx}, ${sy})`;
      if (best === undefined) {
        expect((await solveAt(instance, 12)).status, where).toBe('unsat');
        continue;
      }
      winnable++;
      const found = await solveAt(instance, best.length);
      expect(found.status, where).toBe('sat');
      expect(verifyHexahop(instance, (found as { plan: HexahopSolution }).plan, best.length).ok, where).toBe(
        true,
      );
      expect((await solveAt(instance, best.length - 1)).status, where).toBe('unsat');
    }
    expect(winnable).toBeGreaterThan(3);
  });

  it('proves a map without a win unsatisfiable where the search finds none', async () => {
    const instance = map(['g.g', 'og.'], [0, 1]);
    expect(shortestWin(instance)).toBeUndefined();
    expect((await solveAt(instance, 8)).status).toBe('unsat');
  });

  it('never claims a win below the lower bound', () => {
    const instance = MAPS['green tiles around a floor tile']!;
    const below = sut(instance, hexahopLowerBound(instance) - 1);
    expect([...below.formula.clauses()].some((c) => c.length === 0)).toBe(true);
  });

  for (const level of ['Hive', 'Triangular']) {
    it(`solves the real level ${level} in its fewest moves, verified`, async () => {
      const instance = parseHexahopInstance({ level });
      const lower = hexahopLowerBound(instance);
      const atLower = await solveAt(instance, lower);
      expect(atLower.status).toBe('sat');
      const plan = (atLower as { plan: { moves: MoveName[]; score: number } }).plan;
      expect(verifyHexahop(instance, plan, lower)).toEqual({ ok: true, cost: lower });
      expect(plan.score).toBeLessThanOrEqual(instance.par!);
    });
  }
});
