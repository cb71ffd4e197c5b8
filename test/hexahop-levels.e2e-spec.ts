import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

import { describe, expect, it } from 'vitest';

import { instanceOfLevel, loadLevelCatalog, type MoveName, scoreOf, verifyHexahop } from '@satfarm/games';

import { readLevelRecords, readSearchRows, shortestBeamPlans } from '../bench/hexahop/level-results.js';
import { formatMarkdown, levelLines, levelsMarkdown } from '../bench/hexahop/level-table.js';

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
