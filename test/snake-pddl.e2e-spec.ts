import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Cell, snakeInstanceFromPddl, type SnakePddlInstance } from '@satfarm/games';

import { repoRoot, runCli } from './support/run-cli.js';

/** The IPC-2018 problems, beside the repository and not in it (docs/cli.md#pddl-input). */
const IPC = join(repoRoot, '..', 'shared', 'snake-ipc2018');

interface Report {
  status: string;
  horizon?: number;
  verified: boolean;
  bounds: { lower: number; upper?: number };
  solution?: { path: Cell[] };
}

/**
 * Whether `path` (the head's cells from step 0) is a plan under the domain's own actions: a plain
 * move frees the tail only after the head has moved, eating grows the snake and puts an apple on
 * the next spawn cell, and the goal is no apple left. Written from domain.pddl, apart from the model.
 */
function isDomainPlan(instance: SnakePddlInstance, path: Cell[]): boolean {
  const key = ([x, y]: Cell): string => `${x},${y}`;
  const walls = new Set((instance.walls ?? []).map(key));
  let body = instance.body.map(key);
  const apples = new Set(instance.apples.map(key));
  const spawn = (instance.spawn ?? []).map(key);
  if (key(path[0]!) !== body[0]) return false;
  for (let t = 1; t < path.length; t++) {
    const [[ax, ay], [bx, by]] = [path[t - 1]!, path[t]!];
    const cell = key(path[t]!);
    const inside = bx >= 0 && by >= 0 && bx < instance.width && by < instance.height;
    if (!inside || Math.abs(ax - bx) + Math.abs(ay - by) !== 1 || walls.has(cell) || body.includes(cell))
      return false;
    if (apples.delete(cell)) {
      body = [cell, ...body];
      const next = spawn.shift();
      if (next !== undefined) apples.add(next);
    } else {
      body = [cell, ...body.slice(0, -1)];
    }
  }
  return apples.size === 0 && spawn.length === 0;
}

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'satfarm-e2e-snake-pddl-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!existsSync(IPC))('satfarm solve snake on an IPC-2018 PDDL problem', () => {
  const p04 = join(IPC, 'p04.pddl');

  // 12 moves: a breadth-first search over the domain's actions from p04's initial state finds
  // no shorter plan (5,659 states).
  it('solves p04 from a file to its proven optimum, a plan under the domain rules', async () => {
    const run = await runCli(['solve', 'snake', '--input', p04, '--json', '--parallel', '2']);
    expect(run.code, run.stderr).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({ status: 'optimal', horizon: 12, verified: true });
    expect(report.bounds).toEqual({ lower: 12, upper: 12 });
    const instance = snakeInstanceFromPddl(readFileSync(p04, 'utf8'));
    expect(report.solution!.path).toHaveLength(13);
    expect(isDomainPlan(instance, report.solution!.path)).toBe(true);
  });

  it('reads the problem from standard input (--input -)', async () => {
    const run = await runCli(['solve', 'snake', '--input', '-', '--json', '--parallel', '2'], {
      stdin: readFileSync(p04, 'utf8'),
    });
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'optimal', horizon: 12, verified: true });
  });
});

/** A 2x2 problem: the snake on the left column, one apple at [1, 1]. */
const SMALL = `(define (problem small-2x2)
(:domain snake)
(:objects pos0-0 pos1-0 pos0-1 pos1-1)
(:init
  (ISADJACENT pos0-0 pos1-0) (ISADJACENT pos1-0 pos0-0) (ISADJACENT pos0-1 pos1-1) (ISADJACENT pos1-1 pos0-1)
  (ISADJACENT pos0-0 pos0-1) (ISADJACENT pos0-1 pos0-0) (ISADJACENT pos1-0 pos1-1) (ISADJACENT pos1-1 pos1-0)
  (headsnake pos0-0) (nextsnake pos0-0 pos0-1) (tailsnake pos0-1) (blocked pos0-0) (blocked pos0-1)
  (spawn dummypoint)
  (ispoint pos1-1))
(:goal (and (not (ispoint pos1-1)))))
`;

describe('satfarm solve snake refuses a PDDL problem it cannot read', () => {
  it('exits 2 naming the fact and its line', async () => {
    const input = join(dir, 'unknown-fact.pddl');
    writeFileSync(input, SMALL.replace('(spawn dummypoint)', '(spawn dummypoint)\n  (foo pos1-1)'));
    const run = await runCli(['solve', 'snake', '--input', input, '--json']);
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('input: line 9: unknown fact (foo pos1-1)');
  });

  it('exits 2 naming another domain', async () => {
    const run = await runCli(['solve', 'snake', '--input', '-', '--json'], {
      stdin: SMALL.replace('(:domain snake)', '(:domain blocksworld)'),
    });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('input: line 2: domain blocksworld: only the IPC-2018 snake domain is read');
  });
});
