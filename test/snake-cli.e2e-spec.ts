import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type SnakeInstance, SnakeSimulator } from '@satfarm/games';

import { runCli } from './support/run-cli.js';

let dir: string;

interface Report {
  status: string;
  horizon?: number;
  verified: boolean;
  bounds: { lower: number; upper?: number };
  solution?: { path: [number, number][] };
}

function file(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'satfarm-e2e-snake-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('satfarm generate snake', () => {
  it('prints the same instance for the same seed', async () => {
    const args = ['generate', 'snake', '--width', '8', '--height', '6', '--apples', '5', '--seed', '3'];
    const [first, second] = await Promise.all([runCli(args), runCli(args)]);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(second.stdout);
    const instance = JSON.parse(first.stdout) as SnakeInstance;
    expect(instance).toMatchObject({ width: 8, height: 6 });
    expect(instance.apples).toHaveLength(5);
  });
});

describe('satfarm solve snake', () => {
  it('solves a generated 10x10 instance with 9 apples to a proven optimum the simulator accepts', async () => {
    const generated = await runCli([
      'generate',
      'snake',
      '--width',
      '10',
      '--height',
      '10',
      '--apples',
      '9',
      '--seed',
      '1',
    ]);
    expect(generated.code).toBe(0);
    const input = file('snake-10x10.json', generated.stdout);
    const run = await runCli(['solve', 'snake', '--input', input, '--json', '--parallel', '2']);
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as Report;
    expect(report).toMatchObject({ status: 'optimal', verified: true });
    expect(report.bounds).toEqual({ lower: report.horizon, upper: report.horizon });
    const sim = new SnakeSimulator(JSON.parse(generated.stdout) as SnakeInstance);
    const path = report.solution!.path;
    expect(path).toHaveLength(report.horizon! + 1);
    for (const cell of path.slice(1)) expect(sim.move(sim.grid.index(cell)).ok).toBe(true);
    expect(sim.isDone()).toBe(true);
  });

  it('exits 1 with status unsatisfiable when the body walls the apple off', async () => {
    const input = file('walled.json', {
      width: 5,
      height: 1,
      length: 3,
      body: [
        [1, 0],
        [2, 0],
        [3, 0],
      ],
      apples: [[4, 0]],
    });
    const run = await runCli(['solve', 'snake', '--input', input, '--json']);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as Report).status).toBe('unsatisfiable');
  });

  it('exits 1 with status unsatisfiable when the horizon cap is too short', async () => {
    const input = file('far.json', {
      width: 6,
      height: 6,
      apples: [
        [5, 5],
        [0, 5],
      ],
      order: 'given',
    });
    const run = await runCli(['solve', 'snake', '--input', input, '--json', '--max-horizon', '12']);
    expect(run.code).toBe(1);
    expect((JSON.parse(run.stdout) as Report).status).toBe('unsatisfiable');
  });

  it('gives up on a horizon whose formula outgrows --max-formula-mib, naming why, and builds the ones that fit', async () => {
    // 30x30 at horizons 57 and 58: about 87,000 clauses, 1.4 MB each. Under 1 MiB neither is
    // built on (exit 3: no answer); under 2 MiB both are, and 58 is the optimum.
    const input = JSON.stringify({ width: 30, height: 30, length: 3, start: [0, 0], apples: [[29, 29]] });
    const args = ['solve', 'snake', '--input', input, '--json', '--min-horizon', '58', '--max-horizon', '58'];
    const small = await runCli([...args, '--max-formula-mib', '1']);
    expect(small.code).toBe(3);
    const refused = JSON.parse(small.stdout) as Report & { horizons: Record<string, unknown>[] };
    expect(refused.status).toBe('unknown');
    expect(refused.horizons).toEqual([
      { t: 57, result: 'unknown', ms: expect.any(Number) as number, reason: 'formula-limit' },
      { t: 58, result: 'unknown', ms: expect.any(Number) as number, reason: 'formula-limit' },
    ]);
    const enough = await runCli([...args, '--max-formula-mib', '2']);
    expect(enough.code).toBe(0);
    expect(JSON.parse(enough.stdout)).toMatchObject({ status: 'optimal', horizon: 58, verified: true });
    const zero = await runCli([...args, '--max-formula-mib', '0']);
    expect(zero.code).toBe(2);
    expect(zero.stderr).toMatch(/--max-formula-mib/);
  });

  it('exits 2 naming the field of bad input', async () => {
    const input = file('bad.json', {
      width: 10,
      height: 10,
      apples: [
        [1, 1],
        [2, 2],
        [10, 3],
      ],
    });
    const run = await runCli(['solve', 'snake', '--input', input, '--json']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('apples[2]');
    expect(run.stderr).toContain('outside the 10x10 grid');
  });
});
