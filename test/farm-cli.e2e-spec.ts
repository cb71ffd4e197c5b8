import { spawn } from 'node:child_process';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { pigeonhole } from '@satfarm/cnf';

import { type ServeProcess, startServe } from './support/farm-processes.js';
import { descendants, isAlive } from './support/process-table.js';
import { type CliRun, repoRoot } from './support/run-cli.js';
import { exitOf, waitUntil, within } from './support/waits.js';

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

/** The rows of four cells a human view draws under `title` (a line of its own), up to the next title. */
function drawnRows(view: string, title: string): string[] {
  const lines = view.split('\n');
  const start = lines.indexOf(title);
  if (start < 0) return [];
  const block: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (!line.startsWith(' ')) break;
    block.push(line.trim());
  }
  return block.filter((line) => /^\d( \d){3}$/.test(line));
}

/** A serve of the test's own with one slot, given a job of `body`; stopped after `run`. */
async function withOwnServe(
  name: string,
  body: unknown,
  run: (own: ServeProcess, jobId: string) => Promise<void>,
): Promise<void> {
  const own = await startServe(['--port', '0', '--workers', '1'], {
    ...env,
    SATFARM_PREFIX: `satfarm-cli-${name}-${process.pid}`,
  });
  try {
    const created = await fetch(`${own.url}/v1/jobs`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(created.status).toBe(201);
    await run(own, ((await created.json()) as { id: string }).id);
  } finally {
    await own.stop();
  }
}

/**
 * Waits until every one of `pids` has exited (up to 5 s), and says which have not: they are not
 * this process's children, so only the process table shows their end.
 */
async function stillAlive(pids: number[]): Promise<number[]> {
  await waitUntil(() => !pids.some(isAlive), { what: 'the processes to end', timeoutMs: 5_000 }).catch(
    () => undefined,
  );
  return pids.filter(isAlive);
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

  it('keeps answering while its solver slots build a large formula: they run on a thread of their own', async () => {
    // 100 x 100 cells at horizon 197: about 3 million clauses, seconds of building.
    const instance = { width: 100, height: 100, length: 3, start: [0, 0], apples: [[99, 99]] };
    let done = false;
    const job = satfarm([
      'submit',
      'snake',
      '--input',
      JSON.stringify(instance),
      '--min-horizon',
      '197',
      '--max-horizon',
      '197',
      '--api',
      serve.url,
      '--json',
    ]).finally(() => (done = true));
    const latencies: number[] = [];
    // Sampling /health every 50 ms for as long as the build lasts: the measurement, not a wait.
    while (!done) {
      const started = performance.now();
      expect((await fetch(`${serve.url}/health`)).status).toBe(200);
      latencies.push(performance.now() - started);
      await new Promise((r) => setTimeout(r, 50));
    }
    const run = await job;
    expect(run.code, run.stderr).toBe(1);
    const { horizons } = JSON.parse(run.stdout) as { horizons: Array<{ ms: number; solverCpuMs?: number }> };
    // The premise: the horizon spent over 2 s outside its solver, building (on the API's own thread,
    // /health waited as long).
    expect(horizons[0]!.ms - (horizons[0]!.solverCpuMs ?? horizons[0]!.ms)).toBeGreaterThan(2000);
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });

  it('submit --json prints the final job as JSON with the exit codes of solve', async () => {
    const unsat = await satfarm([
      'submit',
      'cnf',
      '--input',
      'examples/php-7.cnf',
      '--api',
      serve.url,
      '--json',
    ]);
    expect(unsat.code).toBe(1);
    expect(JSON.parse(unsat.stdout)).toMatchObject({ game: 'cnf', status: 'unsatisfiable', error: null });

    const sat = await satfarm(
      ['submit', 'cnf', '--input', '-', '--api', serve.url, '--json'],
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

  it("submit without --json prints solve's human view of the job: its id, its answer drawn and a second one too", async () => {
    // Too few clues for one solution: the farm's answer and a second, different one.
    const run = await satfarm([
      'submit',
      'towers',
      '--input',
      '{"n": 4, "top": [4, 0, 0, 0]}',
      '--unique',
      '--api',
      serve.url,
    ]);
    expect(run.code, run.stderr).toBe(0);
    const head = /^towers: satisfiable; verified: yes\njob: (\S+)\nunique: no\n/.exec(run.stdout);
    expect(head, run.stdout).not.toBeNull();
    const job = (await (await fetch(`${serve.url}/v1/jobs/${head![1]}`)).json()) as {
      solution: { grid: number[][] };
      secondSolution: { grid: number[][] };
    };
    // Each drawing is the grid of the job the farm holds (the clue line above it aside).
    expect(drawnRows(run.stdout, 'solution:')).toEqual(job.solution.grid.map((row) => row.join(' ')));
    expect(drawnRows(run.stdout, 'second solution:')).toEqual(
      job.secondSolution.grid.map((row) => row.join(' ')),
    );
    expect(job.secondSolution.grid).not.toEqual(job.solution.grid);
    expect(run.stdout).toMatch(/\nsolver run:\n {2}sat +\d+ ms/);
  });

  it('submit exits 3 for a plan the farm has not proven optimal by the timeout', async () => {
    // A 3x3 scramble of 10 moves: its undoing is a plan; no shorter one is ruled out within 2 s.
    const run = await satfarm([
      'submit',
      'cube',
      '--input',
      '{"size": 3, "scramble": "R U F\' L D2 B R\' U2 F L\'"}',
      '--plan',
      "L F' U2 R B' D2 L' F U' R'",
      // The bound's search proves this optimum outright; below a bound not trusted, a solver must.
      '--no-trust-bound',
      '--timeout',
      '2',
      '--api',
      serve.url,
      '--json',
    ]);
    expect(run.code, run.stderr).toBe(3);
    const job = JSON.parse(run.stdout) as { status: string; bounds: { lower: number; upper: number } };
    expect(job.status).toBe('satisfiable');
    expect(job.bounds.upper).toBeLessThanOrEqual(10);
    expect(job.bounds.lower).toBeLessThan(job.bounds.upper);
  });

  it('submit refuses options the game would ignore, naming them, as solve does', async () => {
    const run = await satfarm([
      'submit',
      'cnf',
      '--input',
      'examples/php-6.cnf',
      '--policy',
      'probe',
      '--api',
      serve.url,
    ]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(
      /bad input: options\.policy: applies to planning games with a horizon sweep, not to cnf/,
    );
  });

  it('submit of bad input exits 2 naming the field, and an unreachable farm exits 5', async () => {
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
    expect(away.code).toBe(5);
    // One line naming the farm, no stack trace.
    expect(away.stderr).toBe('satfarm: cannot reach the farm at http://127.0.0.1:9: websocket error\n');
    expect(away.stdout).toBe('');
  });

  it('submit checks --api and --priority before it connects, exiting 2 naming them', async () => {
    const cases: Array<[string[], RegExp]> = [
      [
        ['--api', 'notaurl'],
        /bad input: api: expected an http:\/\/ or https:\/\/ URL of the farm, got 'notaurl'/,
      ],
      [['--api', 'ftp://127.0.0.1:9'], /bad input: api: /],
      [
        ['--priority', '500', '--api', 'http://127.0.0.1:9'],
        /option '--priority <n>' argument '500' is invalid/,
      ],
    ];
    for (const [flags, message] of cases) {
      const run = await satfarm(['submit', 'cnf', '--input', 'examples/php-6.cnf', ...flags]);
      expect(run.code).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).not.toMatch(/cannot reach/);
    }
    const env = await satfarm(['submit', 'cnf', '--input', 'examples/php-6.cnf'], {
      SATFARM_API_URL: 'farm',
    });
    expect(env.code).toBe(2);
    expect(env.stderr).toMatch(/bad input: SATFARM_API_URL: /);
  });

  it('refuses bad configuration naming the variable', async () => {
    const worker = await satfarm(['worker', '--slots', '1']);
    expect(worker.code).toBe(2);
    expect(worker.stderr).toMatch(/REDIS_URL/);
    const slots = await satfarm(['serve', '--port', '0'], { SATFARM_WORKER_SLOTS: 'many' });
    expect(slots.code).toBe(2);
    expect(slots.stderr).toMatch(/SATFARM_WORKER_SLOTS/);
    // The farm's own port, taken: named, and the process ends (with its private redis-server).
    const port = new URL(serve.url).port;
    const taken = await satfarm(['serve', '--port', port, '--workers', '1']);
    expect(taken.code, taken.stderr).toBe(2);
    expect(taken.stderr).toMatch(new RegExp(`bad input: port: ${port} is in use`));
    expect(taken.stderr).not.toMatch(/^\s+at /m);
  });

  it('killed with SIGKILL mid-solve, leaves nothing running: no solver, no spawn host, no redis-server', async () => {
    await withOwnServe('kill', { game: 'cnf', instance: pigeonhole(13, 12).toDimacs() }, async (own) => {
      // A solver seen on two polls 50 ms apart (not the version probe).
      let solvers: number[] = [];
      await waitUntil(
        () => {
          const now = descendants(own.pid)
            .filter((row) => row.command === 'kissat')
            .map((row) => row.pid);
          const steady = now.some((pid) => solvers.includes(pid));
          solvers = now;
          return steady;
        },
        { what: 'a solver under serve', timeoutMs: 20_000, everyMs: 50 },
      );
      expect(solvers.length).toBeGreaterThan(0);
      const everything = descendants(own.pid).map((row) => row.pid);
      own.child.kill('SIGKILL');
      await exitOf(own.child);
      expect(await stillAlive(everything)).toEqual([]);
    });
  });

  it('stops on SIGTERM in the middle of a formula build, without waiting for the build', async () => {
    // 200 x 200 cells at horizon 1000: minutes of building (past 4 GiB), within every input limit.
    const job = {
      game: 'snake',
      instance: { width: 200, height: 200, length: 3, start: [0, 0], apples: [[199, 199]] },
      options: { minHorizon: 1000, maxHorizon: 1000, parallelism: 1 },
    };
    await withOwnServe('build', job, async (own, id) => {
      // Its one horizon (the sweep starts a horizon below the hint) shown running: building.
      await waitUntil(
        async () => {
          const resource = (await (await fetch(`${own.url}/v1/jobs/${id}`)).json()) as {
            horizons: { result: string }[];
          };
          return resource.horizons.some((h) => h.result === 'running');
        },
        { what: 'the horizon to run', timeoutMs: 30_000, everyMs: 50 },
      );
      // A second into the build: a delay on purpose, which no event marks.
      await new Promise((r) => setTimeout(r, 1000));
      const everything = descendants(own.pid).map((row) => row.pid);
      const sent = performance.now();
      own.child.kill('SIGTERM');
      const code = await within(exitOf(own.child), { what: 'serve to stop', timeoutMs: 15_000 }).catch(
        () => 'hung',
      );
      expect(code, `${Math.round(performance.now() - sent)} ms after SIGTERM`).toBe(0);
      expect(performance.now() - sent).toBeLessThan(5_000);
      expect(await stillAlive(everything)).toEqual([]);
    });
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
