import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { instanceOfLevel, loadLevelCatalog, type MoveName, scoreOf, verifyHexahop } from '@satfarm/games';

import { readLevelRecords, readSearchRows, shortestBeamPlans } from '../bench/hexahop/level-results.js';
import { formatMarkdown, levelLines, levelsMarkdown, type SearchRow } from '../bench/hexahop/level-table.js';

const results = fileURLToPath(new URL('../bench/results', import.meta.url));
const docs = fileURLToPath(new URL('../docs/hexahop-levels.md', import.meta.url));

/**
 * docs/hexahop-levels.md tells a user each level's fewest moves. It must be what the recorded
 * runs say, the records must not contradict each other, and every plan it lists must win.
 */
describe('the Hex-a-Hop levels table', () => {
  const catalog = loadLevelCatalog();
  const { lines, problems } = levelLines(
    catalog,
    readLevelRecords((reason) => {
      throw new Error(reason);
    }, results),
    readSearchRows(results),
  );

  it('lists all 100 levels, with no record contradicting another', () => {
    expect(lines.map((l) => l.number)).toEqual(catalog.map((e) => e.number));
    expect(problems).toEqual([]);
    expect(lines.filter((l) => l.status === 'none')).toEqual([]);
  });

  it('is the table docs/hexahop-levels.md shows', async () => {
    expect(
      readFileSync(docs, 'utf8'),
      'stale: regenerate it with node dist/bench/hexahop/hexahop-levels.report.js',
    ).toBe(await formatMarkdown(levelsMarkdown(lines), docs));
  });

  it("counts a level as found by search only where a search's bound meets a plan, and flags a plan under it", () => {
    const level = { number: 1, name: 'A', par: 50, supported: true };
    const plan = (moves: number) => ({ moves, optimal: false, source: 'plans.json', plan: 'N' });
    const sat = new Map([['A', { lower: 40, lowerSource: 'sat.json', plans: [plan(45)] }]]);
    const bound = (lower: number): SearchRow => ({
      level: 'A',
      search: `>${lower - 1}`,
      lower,
      source: 'b.json',
    });
    const lineWith = (rows: SearchRow[]) => levelLines([level], sat, rows);
    expect(lineWith([bound(45)]).lines[0]).toMatchObject({
      status: 'search',
      moves: 45,
      bounds: '45..45',
      source: 'bound: b.json; plan: plans.json',
    });
    expect(lineWith([bound(43)]).lines[0]).toMatchObject({ status: 'open', bounds: '43..45' });
    expect(lineWith([bound(38)]).lines[0]).toMatchObject({ status: 'open', bounds: '40..45' });
    expect(lineWith([bound(46)]).problems).toEqual([
      "A: a plan of 45 under the search's bound 46 (plans.json)",
    ]);
    const found = { level: 'A', search: '44', lower: 44, source: 'c.json' };
    expect(lineWith([found, bound(45)]).problems).toContain('A: search 44 under the bound 45 of b.json');
    // A search's own plan stands beside the recorded ones of as many moves: the best score shows.
    const searched = (score: number): SearchRow => ({
      level: 'A',
      search: '45',
      lower: 45,
      score,
      plan: 'S',
      source: 'd.json',
    });
    const scored = new Map([['A', { lower: 40, plans: [{ ...plan(45), score: 85 }] }]]);
    expect(levelLines([level], scored, [searched(95)]).lines[0]).toMatchObject({
      score: 85,
      source: 'd.json; plan: plans.json',
    });
    expect(levelLines([level], scored, [searched(75)]).lines[0]).toMatchObject({
      score: 75,
      source: 'd.json',
      plan: 'S',
    });
  });

  it('wins every level it gives a plan for, in the moves and with the score it says', () => {
    const planned = lines.filter((l) => l.plan !== undefined);
    expect(planned.length).toBeGreaterThanOrEqual(lines.filter((l) => l.status === 'optimal').length);
    for (const line of planned) {
      const instance = instanceOfLevel(catalog.find((e) => e.number === line.number)!);
      const moves = line.plan!.split(' ') as MoveName[];
      expect(moves, line.level).toHaveLength(line.moves!);
      const verdict = verifyHexahop(instance, { moves, score: line.score ?? 0 }, moves.length);
      expect(verdict, line.level).toMatchObject({ ok: true });
    }
  });

  it("gives the bench's --plans beam each level's shortest beam plan, which wins", () => {
    const records = readLevelRecords((reason) => {
      throw new Error(reason);
    }, results);
    const shortest = shortestBeamPlans((reason) => {
      throw new Error(reason);
    }, results);
    expect(shortest.size).toBeGreaterThan(0);
    for (const [level, plan] of shortest) {
      const moves = plan.split(' ') as MoveName[];
      const beamLengths = records
        .get(level)!
        .plans.filter((p) => p.source.startsWith('hexahop-beam'))
        .map((p) => p.moves);
      expect(moves.length, level).toBe(Math.min(...beamLengths));
      const instance = instanceOfLevel(catalog.find((e) => e.name === level)!);
      const verdict = verifyHexahop(instance, { moves, score: scoreOf(instance, moves) }, moves.length);
      expect(verdict, level).toMatchObject({ ok: true });
    }
  });
});
