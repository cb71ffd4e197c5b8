import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { runCli } from './support/run-cli.js';

const dir = mkdtempSync(join(tmpdir(), 'satfarm-pdb-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('satfarm cube-tables', () => {
  it('status names each table missing or mismatched, and exits 1 until all are present', async () => {
    writeFileSync(join(dir, 'cube3-qtm-corners-v1.pdb'), 'cut short');
    const run = await runCli(['cube-tables', 'status', '--dir', dir]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout.split('\n').filter((l) => /^(htm|qtm) /.test(l))).toEqual([
      'htm corners             missing',
      'htm edges-0-1-2-3-8-9   missing',
      'qtm corners             mismatched',
      'qtm edges-0-1-2-3-8-9   missing',
    ]);
    expect(run.stdout).toContain('satfarm cube-tables build');
  });

  it('refuses to build with the tables turned off, naming SATFARM_PDB_DIR', async () => {
    const run = await runCli(['cube-tables', 'build'], { env: { ...process.env, SATFARM_PDB_DIR: 'off' } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/SATFARM_PDB_DIR: is 'off'/);
  });

  it('solves a 3x3 to its optimum with a mismatched table in the folder (the small bound stands in)', async () => {
    const run = await runCli(
      ['solve', 'cube', '--input', '{"size": 3, "scramble": "R U F2 L\' D"}', '--json'],
      {
        env: { ...process.env, SATFARM_PDB_DIR: dir },
      },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'optimal', horizon: 5 });
  });
});
