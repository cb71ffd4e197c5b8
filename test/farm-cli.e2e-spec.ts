import { spawn } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ServeProcess, startServe } from './support/farm-processes.js';
import { descendants, isAlive } from './support/process-table.js';
import { type CliRun, repoRoot } from './support/run-cli.js';

/** The environment of the embedded default: no REDIS_URL, and a prefix of this spec's own. */
const env: NodeJS.ProcessEnv = {
  ...process.env,
  REDIS_URL: '',
  SATFARM_PREFIX: `satfarm-cli-${process.pid}`,
};
let serve: ServeProcess;

function satfarm(args: string[], extraEnv: NodeJS.ProcessEnv = {}, stdin = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${repoRoot}bin/satfarm`, args, { cwd: repoRoot, env: { ...env, ...extraEnv } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

beforeAll(async () => {
  serve = await startServe(['--port', '0', '--workers', '2'], env);
});

afterAll(async () => {
  await serve?.stop();
});

describe('satfarm serve (the embedded default) and satfarm submit', () => {
  it('starts its own redis-server and serves the farm', () => {
    expect(serve.stderr()).toMatch(/redis: +embedded, redis:\/\/127\.0\.0\.1:\d+/);
    expect(descendants(serve.pid).some((row) => row.command === 'redis-server')).toBe(true);
  });

  it('submit prints the final job as JSON with the exit codes of solve', async () => {
    const unsat = await satfarm(['submit', 'cnf', '--input', 'examples/php-7.cnf', '--api', serve.url]);
    expect(unsat.code).toBe(1);
    expect(JSON.parse(unsat.stdout)).toMatchObject({ game: 'cnf', status: 'unsatisfiable', error: null });

    const sat = await satfarm(
      ['submit', 'cnf', '--input', '-', '--api', serve.url],
      {},
      'p cnf 2 2\n1 2 0\n-1 0\n',
    );
    expect(sat.code).toBe(0);
    expect(JSON.parse(sat.stdout)).toMatchObject({
      status: 'satisfiable',
      verified: true,
      solution: { model: [-1, 2] },
    });
  });

  it('submit of bad input exits 2 naming the field, and an unreachable farm exits 4', async () => {
    const bad = await satfarm(
      ['submit', 'cnf', '--input', '-', '--api', serve.url],
      {},
      'p cnf 2 1\n1 x 0\n',
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/instance.*line 2/);
    expect(bad.stdout).toBe('');
    const plan = await satfarm([
      'submit',
      'hexahop',
      '--input',
      '{"level": "Hive"}',
      '--plan',
      '["N"]',
      '--api',
      serve.url,
    ]);
    expect(plan.code).toBe(2);
    expect(plan.stderr).toMatch(/options\.plan.*does not solve the instance/);
    const away = await satfarm([
      'submit',
      'cnf',
      '--input',
      'examples/php-6.cnf',
      '--api',
      'http://127.0.0.1:9',
    ]);
    expect(away.code).toBe(4);
    expect(away.stderr).toMatch(/cannot reach the farm/);
  });

  it('refuses bad configuration naming the variable', async () => {
    const worker = await satfarm(['worker', '--slots', '1']);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(/REDIS_URL/);
    const slots = await satfarm(['serve', '--port', '0'], { SATFARM_WORKER_SLOTS: 'many' });
    expect(slots.code).toBe(2);
    expect(slots.stderr).toMatch(/SATFARM_WORKER_SLOTS/);
  });

  it('stops on SIGTERM, and its redis-server with it', async () => {
    const redis = descendants(serve.pid).filter((row) => row.command === 'redis-server');
    expect(redis).toHaveLength(1);
    const exit = new Promise<number | null>((resolve) => serve.child.once('exit', (code) => resolve(code)));
    serve.child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(isAlive(redis[0]!.pid)).toBe(false);
  });
});
