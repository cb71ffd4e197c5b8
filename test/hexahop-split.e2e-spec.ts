import { execFile, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

import { afterAll, describe, expect, it } from 'vitest';

import {
  DIRECTION_NAMES,
  HexahopSimulator,
  instanceOfLevel,
  loadLevelCatalog,
  searchShortestWin,
} from '@satfarm/games';

import { winsLevel } from './support/hexahop-plans.js';
import { descendants, isAlive } from './support/process-table.js';
import { repoRoot } from './support/run-cli.js';
import { waitUntil } from './support/waits.js';

const run = promisify(execFile);
const BENCH = join(repoRoot, 'dist/bench/hexahop/hexahop-split.bench.js');
const work = mkdtempSync(join(tmpdir(), 'satfarm-split-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface SplitResult {
  interrupted: boolean;
  summary: { verdict: string; cubes: number; unanswered: number; plan?: string };
  cubes: { depth?: number; prefix: string; at?: string; result: string }[];
  rows: { level: string; status: string; bounds: string; moves?: number; plan?: string }[];
}

async function split(name: string, args: string[]): Promise<SplitResult> {
  const out = join(work, `${name}.json`);
  await run('node', [BENCH, ...args, '--out', out], { cwd: repoRoot });
  return JSON.parse(readFileSync(out, 'utf8')) as SplitResult;
}

describe('Hex-a-Hop horizons split into cubes (hexahop-split bench)', () => {
  const level = instanceOfLevel(loadLevelCatalog().find((e) => e.name === 'Trampolines')!);
  const shortest = searchShortestWin(level, 200_000).plan!;
  /** The bench on Trampolines at `horizon`, with `more` options. */
  const trampolines = (name: string, horizon: number, ...more: string[]): Promise<SplitResult> =>
    split(name, ['--level', 'Trampolines', '--horizon', String(horizon), ...more]);

  it('proves the horizon under the fewest moves unwinnable cube by cube, and finds a plan at the fewest', async () => {
    const below = await trampolines('below', shortest.length - 1, '--depth', '2', '--cap', '120');
    expect(below.summary).toMatchObject({ unanswered: 0 });
    expect(below.summary.verdict).toBe(`no win within ${shortest.length - 1} moves: every cube UNSAT`);
    // Every state two moves reach, once each (a state two orders reach is one cube).
    expect(below.cubes.length).toBeGreaterThan(1);
    expect(below.cubes.every((c) => c.depth === 2 && ['unsat', 'bound'].includes(c.result))).toBe(true);
    // Some by the level's lower bound from there, some by a solver.
    expect(below.cubes.some((c) => c.result === 'unsat')).toBe(true);
    const states = new Set(
      below.cubes.map((c) => {
        const sim = new HexahopSimulator(level);
        for (const m of c.prefix.split(' ')) expect(sim.move(m).ok).toBe(true);
        return sim.key();
      }),
    );
    expect(states.size).toBe(below.cubes.length);
    expect(below.rows).toEqual([
      expect.objectContaining({ level: 'Trampolines', bounds: `${shortest.length}..?` }),
    ]);

    const at = await trampolines('at', shortest.length, '--cap', '120');
    expect(at.summary.verdict).toBe(`a plan of ${shortest.length} moves`);
    expect(winsLevel(level, at.summary.plan!.split(' '))).toBe(true);
    expect(at.rows[0]).toMatchObject({
      status: 'satisfiable',
      moves: shortest.length,
      plan: at.summary.plan,
    });
  }, 300_000);

  it('splits a horizon by where the player stands after a step, each cell a cube of the whole formula', async () => {
    const step = Math.floor(shortest.length / 2);
    const below = await trampolines('cells-below', shortest.length - 1, '--at-step', String(step));
    expect(below.summary.verdict).toBe(`no win within ${shortest.length - 1} moves: every cube UNSAT`);
    // One cube per cell the player may stand on after that step, the shortest plan's among them.
    const onPlan = new HexahopSimulator(level);
    for (const m of shortest.slice(0, step)) onPlan.move(m);
    const cells = below.cubes.map((c) => c.at);
    expect(new Set(cells).size).toBe(cells.length);
    expect(cells).toContain(`${onPlan.position.join(',')}@${step}`);
    expect(below.cubes.every((c) => c.result === 'unsat' && c.depth === undefined)).toBe(true);
    expect(below.rows).toEqual([expect.objectContaining({ bounds: `${shortest.length}..?` })]);

    const at = await trampolines('cells-at', shortest.length, '--at-step', String(step));
    expect(at.summary.verdict).toBe(`a plan of ${shortest.length} moves`);
    expect(winsLevel(level, at.summary.plan!.split(' '))).toBe(true);
  }, 300_000);

  it('takes each state once, at the fewest moves that reach it', async () => {
    const fire = instanceOfLevel(loadLevelCatalog().find((e) => e.name === 'Forced Fire')!);
    const result = await split('once', [
      '--level',
      'Forced Fire',
      '--horizon',
      '8',
      '--depth',
      '2',
      '--cap',
      '120',
    ]);
    expect(result.summary.verdict).toBe('no win within 8 moves: every cube UNSAT');
    // The states of exactly two moves, less those that none or one move reaches (a step out and
    // back, or two steps that end where one does with the same board).
    const layers: Map<string, HexahopSimulator>[] = [
      new Map([[new HexahopSimulator(fire).key(), new HexahopSimulator(fire)]]),
    ];
    for (let d = 1; d <= 2; d++) {
      const next = new Map<string, HexahopSimulator>();
      for (const sim of layers[d - 1]!.values()) {
        for (const m of DIRECTION_NAMES) {
          const child = sim.clone();
          if (child.move(m).ok && !child.dead) next.set(child.key(), child);
        }
      }
      layers.push(next);
    }
    const expected = [...layers[2]!.keys()].filter((k) => !layers[0]!.has(k) && !layers[1]!.has(k));
    const cubes = result.cubes.map((c) => {
      const sim = new HexahopSimulator(fire);
      for (const m of c.prefix.split(' ')) sim.move(m);
      return sim.key();
    });
    expect(new Set(cubes).size).toBe(cubes.length);
    expect(new Set(cubes)).toEqual(new Set(expected));
    expect(expected.length).toBeLessThan(layers[2]!.size);
  }, 300_000);

  it('splits a cube the cap leaves unanswered one move deeper, until every state is proven', async () => {
    // A cap too short to build any formula: each cube is split until the level's lower bound from
    // its state is above the moves it has left.
    const result = await split('resplit', [
      '--level',
      'Forced Fire',
      '--horizon',
      '6',
      '--depth',
      '0',
      '--cap',
      '0.001',
    ]);
    expect(result.summary.verdict).toBe('no win within 6 moves: every cube UNSAT');
    expect(result.cubes[0]).toMatchObject({ depth: 0, prefix: '', result: 'split' });
    // Each cube split at depth d puts cubes at d + 1; none is left with no moves and no answer.
    const deepest = Math.max(...result.cubes.map((c) => c.depth!));
    for (let d = 0; d <= deepest; d++) expect(result.cubes.some((c) => c.depth === d)).toBe(true);
    expect(deepest).toBeGreaterThan(1);
    expect(deepest).toBeLessThan(6);
    expect(result.cubes.every((c) => ['split', 'bound', 'unsat'].includes(c.result))).toBe(true);
    expect(result.cubes.some((c) => c.result === 'bound')).toBe(true);
  }, 300_000);

  it('records what it proved when a SIGTERM cuts it short, its solvers reaped', async () => {
    const out = join(work, 'cut.json');
    const bench = spawn(
      'node',
      [BENCH, '--horizon', '40', '--depth', '1', '--parallel', '2', '--cap', '600', '--out', out],
      { cwd: repoRoot, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => bench.on('close', resolve));
    // Only the process table shows the bench's solvers start.
    let solvers: number[] = [];
    await waitUntil(
      () => {
        solvers = descendants(bench.pid!)
          .filter((p) => p.command === 'cadical')
          .map((p) => p.pid);
        return solvers.length >= 2;
      },
      { what: "the bench's two cadical processes", timeoutMs: 60_000, everyMs: 100 },
    );
    expect(solvers.length).toBe(2);
    bench.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(solvers.filter(isAlive)).toEqual([]);
    const result = JSON.parse(readFileSync(out, 'utf8')) as SplitResult;
    expect(result.interrupted).toBe(true);
    expect(result.summary.verdict).toMatch(/^open: \d+ cubes unanswered$/);
    expect(result.cubes.filter((c) => c.result === 'cancelled')).toHaveLength(2);
    expect(result.rows).toEqual([]);
  }, 120_000);

  it('refuses a missing horizon, or both ways of splitting at once, exit 2 naming the option, and writes nothing', async () => {
    const out = join(work, 'refused.json');
    const failed = await run('node', [BENCH, '--level', 'Trampolines', '--out', out], {
      cwd: repoRoot,
    }).catch((error: { code: number; stderr: string }) => error);
    expect(failed).toMatchObject({ code: 2 });
    expect((failed as { stderr: string }).stderr).toMatch(/--horizon: is required/);
    const both = await run(
      'node',
      [BENCH, '--horizon', '30', '--depth', '2', '--at-step', '15', '--out', out],
      { cwd: repoRoot },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(both).toMatchObject({ code: 2 });
    expect((both as { stderr: string }).stderr).toMatch(
      /--at-step: splits by positions, --depth by first moves/,
    );
    expect(existsSync(out)).toBe(false);
  });
});
