import { describe, expect, it } from 'vitest';

import { instanceOfLevel, loadLevelCatalog } from './hexahop.level-catalog.js';
import { HexahopSimulator } from './hexahop.model.js';
import { parseHexahopInstance } from './hexahop.parse.js';
import { searchShortestWin } from './hexahop.search.js';
import { verifyHexahop } from './hexahop.verify.js';

const sut = searchShortestWin;
const level = (name: string) => instanceOfLevel(loadLevelCatalog().find((e) => e.name === name)!);

describe(searchShortestWin.name, () => {
  it('finds a shortest plan of a real level that the simulator replays to a win', () => {
    const hive = level('Hive');
    const outcome = sut(hive, 100_000);
    expect(outcome.capped).toBe(false);
    // Hive's optimum, proven by the SAT sweep (UNSAT at 23) in bench/results/hexahop.json.
    expect(outcome.plan).toHaveLength(24);
    expect(outcome.searchedDepth).toBe(23);
    const sim = new HexahopSimulator(hive);
    for (const m of outcome.plan!) sim.move(m);
    expect(verifyHexahop(hive, { moves: outcome.plan!, score: sim.score }, 24)).toEqual({
      ok: true,
      cost: 24,
    });
  });

  it('stops at the state cap and says how deep it searched, below the optimum', () => {
    const outcome = sut(level('Hive'), 500);
    expect(outcome).toMatchObject({ capped: true, states: 500 });
    expect(outcome.plan).toBeUndefined();
    expect(outcome.searchedDepth).toBeGreaterThan(0);
    expect(outcome.searchedDepth).toBeLessThan(24);
  });

  it('plays every state out when no win exists', () => {
    const island = parseHexahopInstance({ map: ['ogo..g'], start: [0, 0] });
    const outcome = sut(island, 1000);
    expect(outcome).toMatchObject({ capped: false, searchedDepth: Number.POSITIVE_INFINITY });
    expect(outcome.plan).toBeUndefined();
  });

  it('shows each new state it reaches to onState once, the start excluded', () => {
    const seen = new Set<string>();
    let calls = 0;
    const outcome = sut(level('Hive'), 100_000, (sim) => {
      calls++;
      seen.add(Buffer.from(sim.packState()).toString('latin1'));
    });
    expect(calls).toBe(outcome.states - 1);
    expect(seen.size).toBe(calls);
  });
});
