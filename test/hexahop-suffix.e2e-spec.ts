import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';

import {
  HEXAHOP_MOVE_NAMES,
  type HexahopInstance,
  instanceOfLevel,
  loadLevelCatalog,
  searchShortestWin,
} from '@satfarm/games';

import { winsLevel } from './support/hexahop-plans.js';
import { descendants, isAlive } from './support/process-table.js';
import { repoRoot } from './support/run-cli.js';
import { lineMatching, waitUntil } from './support/waits.js';

const run = promisify(execFile);
const BENCH = join(repoRoot, 'dist/bench/hexahop/hexahop-suffix.bench.js');
const work = mkdtempSync(join(tmpdir(), 'satfarm-suffix-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** The plan with a step out and straight back put in at the first place the plan still wins with it. */
function padded(instance: HexahopInstance, plan: readonly string[]): string[] {
  const back = (m: number): string => HEXAHOP_MOVE_NAMES[(m + 3) % 6]!;
  for (let i = 0; i <= plan.length; i++) {
    for (let m = 0; m < 6; m++) {
      const longer = [...plan.slice(0, i), HEXAHOP_MOVE_NAMES[m]!, back(m), ...plan.slice(i)];
      if (winsLevel(instance, longer)) return longer;
    }
  }
  throw new Error('no detour keeps the plan winning');
}

interface SuffixResult {
  summary: { bestMoves: number; givenMoves: number; provenFrom: number | null };
  suffixes: { k: number; rest: number; status: string; fewest?: number; horizons: string }[];
  rows: { level: string; moves: number; plan: string; bounds: string }[];
}

describe('Hex-a-Hop plan suffixes (hexahop-suffix bench)', () => {
  const level = instanceOfLevel(loadLevelCatalog().find((e) => e.name === 'Trampolines')!);

  it('takes the detour out of a padded plan and proves every suffix of what is left the fewest moves', async () => {
    const shortest = searchShortestWin(level, 200_000).plan!;
    const given = padded(level, shortest);
    expect(given.length).toBe(shortest.length + 2);
    const out = join(work, 'trampolines.json');
    await run(
      'node',
      [BENCH, '--level', 'Trampolines', '--plan', given.join(' '), '--cap', '120', '--out', out],
      {
        cwd: repoRoot,
      },
    );
    const result = JSON.parse(readFileSync(out, 'utf8')) as SuffixResult;
    expect(result.summary).toMatchObject({
      givenMoves: given.length,
      bestMoves: shortest.length,
      provenFrom: 0,
    });
    expect(result.suffixes.every((s) => s.status === 'optimal')).toBe(true);
    // Each UNSAT horizon names its formula's clauses and the solver's CPU time and peak memory, as
    // the launcher measured them.
    const unsat = result.suffixes.flatMap((s) => s.horizons.split(' ')).filter((h) => h.includes(':unsat:'));
    expect(unsat.length).toBeGreaterThan(0);
    for (const h of unsat) expect(h).toMatch(/^\d+:unsat:[\d.]+:clauses=\d+:cpu=[\d.]+s:peak=\d+MiB$/);
    // Once the detour is gone, each suffix is the fewest from where its prefix leaves the player.
    const last = result.suffixes.at(-1)!;
    expect(last).toMatchObject({ k: 0, rest: shortest.length, fewest: shortest.length });
    const [row] = result.rows;
    expect(row).toMatchObject({ level: 'Trampolines', moves: shortest.length });
    expect(row!.bounds.endsWith(`..${shortest.length}`)).toBe(true);
    expect(winsLevel(level, row!.plan.split(' '))).toBe(true);
  }, 300_000);

  it('records what it proved when a SIGTERM cuts it short, its solver reaped', async () => {
    const out = join(work, 'cut.json');
    const bench = spawn('node', [BENCH, '--level', 'Forced Fire', '--cap', '600', '--out', out], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => bench.on('close', resolve));
    bench.stderr.resume();
    // Past the quick suffixes (its line for k=31 printed), with the solver on a longer one, which
    // only the process table shows.
    await lineMatching(bench.stdout, /^k=31 /, { what: 'the line of suffix k=31', timeoutMs: 60_000 });
    let solvers: number[] = [];
    await waitUntil(
      () => {
        solvers = descendants(bench.pid!)
          .filter((p) => p.command === 'cadical')
          .map((p) => p.pid);
        return solvers.length > 0;
      },
      { what: "the bench's cadical on a longer suffix", timeoutMs: 60_000, everyMs: 100 },
    );
    expect(solvers.length).toBeGreaterThan(0);
    bench.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(solvers.filter(isAlive)).toEqual([]);
    const result = JSON.parse(readFileSync(out, 'utf8')) as SuffixResult & {
      interrupted: boolean;
      summary: { stopped: string };
    };
    expect(result.interrupted).toBe(true);
    expect(result.summary.stopped).toMatch(/when a signal cut the run short/);
    const last = result.suffixes.at(-1)!;
    expect(last.status).not.toBe('optimal');
    expect(result.suffixes.slice(0, -1).every((s) => s.status === 'optimal')).toBe(true);
    expect(result.summary.provenFrom).toBe(last.k + 1);
  }, 120_000);

  it('refuses a plan that does not win, exit 2 naming --plan, and writes nothing', async () => {
    const out = join(work, 'refused.json');
    const failed = await run('node', [BENCH, '--level', 'Trampolines', '--plan', 'S S', '--out', out], {
      cwd: repoRoot,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(/--plan: does not win Trampolines/);
    expect(existsSync(out)).toBe(false);
  });
});
