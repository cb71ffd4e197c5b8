import { describe, expect, it } from 'vitest';

import { type HexahopInstance, HexahopSimulator } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { randomFramedMap, seededInts } from './hexahop.random-maps.testing.js';
import { shortestWin } from './hexahop.shortest-win.testing.js';
import { joinHexahopPlan, splitHexahop } from './hexahop.split.js';
import { hexahopSolutionOf } from './hexahop.decode.js';
import { staticsOf } from './hexahop.statics.js';
import { verifyHexahop } from './hexahop.verify.js';

/** Random framed maps, a third of them with a jump item, that a plain search wins (with the fewest moves). */
function* winnableRandomMaps(seed: number, count: number) {
  const random = seededInts(seed);
  for (let found = 0; found < count;) {
    const { rows, start } = randomFramedMap(random, 'gggggoo..LLLSPTbBG#', 3 + random(3), 2 + random(2));
    const items: [number, number, string][] = random(3) === 0 ? [[1 + random(3), 1, 'jump']] : [];
    let instance: HexahopInstance;
    try {
      instance = parseHexahopInstance({ map: rows, start, items });
    } catch {
      continue;
    }
    if (staticsOf(instance).unbounded) continue;
    const best = shortestWin(instance, 50_000);
    if (best === undefined || best.length < 2) continue;
    found++;
    yield {
      instance,
      best: best.length,
      where: `${JSON.stringify(rows)} from (${start.join(', ')}) items ${JSON.stringify(items)}`,
    };
  }
}

/** The fewest moves through the cubes of a split: a cube's depth and its own fewest moves. */
function throughCubes(cubes: NonNullable<ReturnType<typeof splitHexahop>>['cubes']): number {
  return Math.min(
    ...cubes.map((c) => {
      const rest = shortestWin(c.instance, 50_000);
      return rest === undefined ? Number.POSITIVE_INFINITY : c.depth + rest.length;
    }),
  );
}

describe(splitHexahop.name, () => {
  it('keeps the fewest moves of random maps through its cubes, and none below them, at depths 1 to 3', () => {
    let deeper = 0;
    for (const { instance, best, where } of winnableRandomMaps(20261128, 12)) {
      for (const depth of [1, 2, 3].filter((d) => d <= best)) {
        const split = splitHexahop(instance, depth, best)!;
        if (split.plan !== undefined) {
          // Met while the prefixes were played: a plan as short as any.
          expect(verifyHexahop(instance, split.plan, best), where).toEqual({ ok: true, cost: best });
          continue;
        }
        const keys = split.cubes.map((c) => new HexahopSimulator(c.instance).key());
        expect(new Set(keys).size, where).toBe(keys.length);
        for (const cube of split.cubes) {
          expect(cube.depth, where).toBeGreaterThanOrEqual(depth);
          if (cube.depth > depth) deeper++;
          const sim = new HexahopSimulator(instance);
          for (const m of cube.prefix.moves) expect(sim.move(m).ok, where).toBe(true);
          expect(sim.key(), where).toBe(keys[split.cubes.indexOf(cube)]);
        }
        expect(throughCubes(split.cubes), `${where} at depth ${depth}`).toBe(best);
        // A plan from the best cube, joined to its prefix, wins the level from its start.
        const cube = split.cubes.find(
          (c) => c.depth + (shortestWin(c.instance, 50_000)?.length ?? 1e9) === best,
        )!;
        const rest = hexahopSolutionOf(cube.instance, shortestWin(cube.instance, 50_000)!);
        expect(verifyHexahop(instance, joinHexahopPlan(instance, cube.prefix, rest), best), where).toEqual({
          ok: true,
          cost: best,
        });
        // One horizon below the fewest moves: no plan met, and no cube has one within what it has left.
        const below = splitHexahop(instance, depth, best - 1)!;
        expect(below.plan, where).toBeUndefined();
        expect(throughCubes(below.cubes), where).toBeGreaterThan(best - 1);
      }
    }
    // Some state where the player held the jump item went a move deeper.
    expect(deeper).toBeGreaterThan(0);
  });

  it('takes a state where the player holds an item a move deeper, where no instance starts with one', () => {
    const instance = parseHexahopInstance({ map: ['oooog'], start: [0, 0], items: [[1, 0, 'jump']] });
    const split = splitHexahop(instance, 1, 4)!;
    // The only first move takes the item: each cube starts after the jump, the item used up.
    expect(split.cubes.map((c) => c.prefix.moves.join(' ')).sort()).toEqual([
      'SE J',
      'SE NW J',
      'SE SE J',
      'SE SE SE J',
    ]);
    for (const cube of split.cubes) expect(cube.depth).toBe(cube.prefix.moves.length);
  });
});
