import { describe, expect, it } from 'vitest';

import { BEAM_RANKINGS, type BeamRanking, beamScore, beamSearchWin } from './hexahop.beam-search.js';
import { instanceOfLevel, loadLevelCatalog } from './hexahop.level-catalog.js';
import { HexahopSimulator } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { verifyHexahop } from './hexahop.verify.js';

const sut = beamSearchWin;
const level = (name: string) => instanceOfLevel(loadLevelCatalog().find((e) => e.name === name)!);
const scoreOf = (map: string[], start: [number, number], ranking?: BeamRanking) =>
  beamScore(new HexahopSimulator(parseHexahopInstance({ map, start })), ranking);

describe(beamSearchWin.name, () => {
  it('finds plans of real levels that the simulator replays to a win, never below the proven optimum', () => {
    // Optima proven by the SAT sweep (UNSAT one move below) in bench/results/hexahop.json.
    for (const [name, optimum, width] of [
      ['Hive', 24, 100],
      ['Orbital', 49, 200],
      ['Bridges', 29, 200],
    ] as const) {
      const instance = level(name);
      const outcome = sut(instance, { width, maxDepth: 100 });
      expect(outcome.plan, name).toBeDefined();
      expect(outcome.depth).toBe(outcome.plan!.length);
      expect(outcome.plan!.length).toBeGreaterThanOrEqual(optimum);
      const sim = new HexahopSimulator(instance);
      for (const m of outcome.plan!) expect(sim.move(m).ok).toBe(true);
      expect(sim.won, name).toBe(true);
      expect(
        verifyHexahop(instance, { moves: outcome.plan!, score: sim.score }, outcome.plan!.length),
      ).toMatchObject({ ok: true });
    }
  });

  it.each(BEAM_RANKINGS)('wins Hive ranked by %s', (ranking) => {
    const hive = level('Hive');
    const outcome = sut(hive, { width: 200, maxDepth: 60, ranking });
    const sim = new HexahopSimulator(hive);
    for (const m of outcome.plan ?? []) sim.move(m);
    expect(sim.won).toBe(true);
    expect(outcome.plan!.length).toBeGreaterThanOrEqual(24);
  });

  it('gives the same plan for the same seed', () => {
    const a = sut(level('Bridges'), { width: 50, maxDepth: 100, seed: 7 });
    const b = sut(level('Bridges'), { width: 50, maxDepth: 100, seed: 7 });
    expect(a).toEqual(b);
  });

  it('stops at maxDepth without a plan when the win lies deeper', () => {
    const outcome = sut(level('Hive'), { width: 1000, maxDepth: 10 });
    expect(outcome).toMatchObject({ depth: 10 });
    expect(outcome.plan).toBeUndefined();
  });

  it('gives up without a plan at its deadline, where it would have found one', () => {
    expect(sut(level('Hive'), { width: 100, maxDepth: 100 }).plan).toBeDefined();
    const outcome = sut(level('Hive'), { width: 100, maxDepth: 100, deadline: performance.now() });
    expect(outcome).toEqual({ depth: 0, states: 1 });
  });

  it('empties, without a plan, on a level that cannot be won', () => {
    const island = parseHexahopInstance({ map: ['ogo..g'], start: [0, 0] });
    const outcome = sut(island, { width: 100, maxDepth: 50 });
    expect(outcome.plan).toBeUndefined();
    expect(outcome.depth).toBeLessThan(50);
  });

  it('refuses a width or depth that is not a whole number', () => {
    expect(() => sut(level('Hive'), { width: 0, maxDepth: 10 })).toThrow(/width/);
    expect(() => sut(level('Hive'), { width: 10, maxDepth: 1.5 })).toThrow(/maxDepth/);
  });
});

describe(beamScore.name, () => {
  it('counts the moves off greens left and the walk to the nearest one', () => {
    // Two greens one step apart from the start: two leaves, one step away.
    expect(scoreOf(['ogg'], [0, 0])).toBe(3);
    // A blue takes two leaves (to turn green, then to go).
    expect(scoreOf(['obg'], [0, 0])).toBe(4);
  });

  it('ranks a player cut off from a green after every state that can still reach its greens', () => {
    const stranded = scoreOf(['ogo..g'], [0, 0]);
    const farButReachable = scoreOf(['oooooooooog'], [0, 0]);
    expect(stranded).toBeGreaterThan(farButReachable + 100);
    // A trampoline throws the player over one cell of water: not cut off.
    expect(scoreOf(['oT.g'], [0, 0])).toBeLessThan(10);
    // Nor is a green a laser the player can reach may still shoot.
    expect(scoreOf(['oL..g'], [0, 0])).toBeLessThan(10);
    expect(scoreOf(['o.L..g'], [0, 0])).toBeGreaterThan(100);
  });

  it('walks to the nearest green (reach), or leaves the walk out (leaves), or measures it straight (count)', () => {
    // The green is 2 cells away in a straight line, a 3-step walk around the water.
    const map = ['o.g', 'ooo'];
    expect(scoreOf(map, [0, 0], 'leaves')).toBe(1);
    expect(scoreOf(map, [0, 0], 'count')).toBe(1 + 2);
    expect(scoreOf(map, [0, 0], 'reach')).toBe(1 + 3);
  });
});
