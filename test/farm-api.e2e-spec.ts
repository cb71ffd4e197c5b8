import { copyFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';

import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { DEFAULT_LEVELS_PATH } from '@satfarm/games';
import { type BatchResource, type FarmOverview, type JobResource, QueueName } from '@satfarm/queue';

import { type Farm, startFarm } from './support/farm.js';
import { http, metricValue, ProgressClient } from './support/farm-client.js';
import type { ApiProcess } from './support/farm-processes.js';
import { runCli } from './support/run-cli.js';
import { waitUntil } from './support/waits.js';

const KEY = 'test-key-0123456789abcdef';
const RATE_KEY = 'rate-key-0123456789abcdef';
const auth = { authorization: `Bearer ${KEY}` };
let replicas: Farm;
// Two API replicas on one Redis: `serving` also runs two solver slots, `front` only the API and
// a coordinator, with a low rate limit.
let serving: ApiProcess;
let front: ApiProcess;
let progress: ProgressClient;

/** A random 3-SAT formula with `vars` variables (deterministic in `seed`), as DIMACS. */
function random3Sat(vars: number, clauses: number, seed: number): string {
  let state = seed * 2654435761 + 1;
  const next = (n: number): number => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const lines = [`p cnf ${vars} ${clauses}`];
  for (let c = 0; c < clauses; c++) {
    const lits = Array.from({ length: 3 }, () => (next(vars) + 1) * (next(2) === 0 ? 1 : -1));
    lines.push(`${lits.join(' ')} 0`);
  }
  return `${lines.join('\n')}\n`;
}

/** Whether `model` satisfies every clause of `dimacs` (checked here, independently of the farm). */
function satisfies(dimacs: string, model: number[]): boolean {
  const truth = new Set(model.filter((l) => l > 0));
  return dimacs
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('p') && !line.startsWith('c'))
    .every((line) =>
      line
        .trim()
        .split(/\s+/)
        .map(Number)
        .filter((l) => l !== 0)
        .some((l) => (l > 0 ? truth.has(l) : !truth.has(-l))),
    );
}

/** A copy of the installed levels.dat that the farm is told it may read. */
const listedLevels = (): string => join(replicas.dir, 'my-levels.dat');

/**
 * Submits `body` through the front replica, follows it on the serving replica's websocket to its
 * end, and returns the job resource then.
 */
async function finishedJob(body: object): Promise<JobResource> {
  const created = await http<{ id: string }>(front.url, 'POST', '/v1/jobs', body, auth);
  expect(created.status).toBe(201);
  expect((await progress.subscribe({ jobId: created.body.id })).ok).toBe(true);
  const end = await progress.jobEnd(created.body.id);
  const job = (await http<JobResource>(front.url, 'GET', `/v1/jobs/${created.body.id}`, undefined, auth))
    .body;
  expect(job.status).toBe(end.status);
  return job;
}

beforeAll(async () => {
  replicas = await startFarm({ name: 'api', apis: [] });
  copyFileSync(DEFAULT_LEVELS_PATH, listedLevels());
  const keys = {
    SATFARM_LEVEL_FILES: listedLevels(),
    SATFARM_API_KEYS: `${KEY},${RATE_KEY}`,
    SATFARM_MAX_BODY_BYTES: '200000',
    SATFARM_MAX_HORIZON: '50',
  };
  [serving, front] = await replicas.startApis([
    { workerSlots: 2, env: keys },
    { env: { ...keys, SATFARM_RATE_LIMIT: '20' } },
  ]);
  progress = await replicas.connectProgress(serving, KEY);
});

afterAll(async () => {
  await replicas?.stop();
});

describe('the farm API', () => {
  it('solves a job submitted over HTTP, with progress on the websocket of another replica, and counts it', async () => {
    const dimacs = random3Sat(60, 220, 11);
    const before = (await http<string>(serving.url, 'GET', '/metrics')).body;
    const created = await http<{ id: string }>(
      front.url,
      'POST',
      '/v1/jobs',
      { game: 'cnf', instance: dimacs },
      auth,
    );
    expect(created.status).toBe(201);
    const jobId = created.body.id;
    expect((await progress.subscribe({ jobId })).ok).toBe(true);
    const end = await progress.jobEnd(jobId);
    expect(['satisfiable', 'unsatisfiable']).toContain(end.status);

    const job = (await http<JobResource>(front.url, 'GET', `/v1/jobs/${jobId}`, undefined, auth)).body;
    const cli = await runCli(['solve', 'cnf', '--input', '-', '--json'], { stdin: dimacs });
    const report = JSON.parse(cli.stdout) as Record<string, unknown>;
    // The same answer, in the CLI's shape plus the job's own fields.
    expect(job.status).toBe(report.status);
    expect(Object.keys(job).sort()).toEqual(
      [...Object.keys(report), 'id', 'summary', 'createdAt', 'finishedAt', 'error'].sort(),
    );
    expect(job).toMatchObject({
      id: jobId,
      game: 'cnf',
      summary: '60 vars, 220 clauses',
      error: null,
      bounds: report.bounds,
    });
    if (job.status === 'satisfiable') {
      expect(job.verified).toBe(true);
      expect(satisfies(dimacs, (job.solution as { model: number[] }).model)).toBe(true);
    }
    expect(
      progress.horizons.some(
        (e) => e.jobId === jobId && e.t === 0 && e.state === (job.status === 'satisfiable' ? 'sat' : 'unsat'),
      ),
    ).toBe(true);

    const after = (await http<string>(serving.url, 'GET', '/metrics')).body;
    for (const name of [
      'satfarm_jobs_total',
      'satfarm_horizons_total',
      'satfarm_solver_seconds',
      'satfarm_queue_jobs',
      'satfarm_active_solvers',
      'satfarm_cancel_latency_seconds',
      'satfarm_solver_peak_rss_bytes',
      'satfarm_solver_cpu_seconds_total',
      'bullmq_job_count',
    ]) {
      expect(after).toContain(`# TYPE ${name} `);
    }
    // Either replica's coordinator may have applied the reports: count over both.
    const front2 = (await http<string>(front.url, 'GET', '/metrics')).body;
    const total = (text: string): number =>
      metricValue(text, 'satfarm_jobs_total', { game: 'cnf', status: job.status });
    expect(total(after) + total(front2) - total(before)).toBeGreaterThanOrEqual(1);
    // The worker measured its solver process (the native spawn host reads the kernel's rusage).
    const line = job.horizons.find((h) => h.t === 0);
    expect(line?.solverPeakRssKiB).toBeGreaterThan(0);
    expect(line?.solverCpuMs).toBeGreaterThanOrEqual(0);
    // And the line names the formula the worker solved: the DIMACS as submitted.
    expect(line).toMatchObject({ vars: 60, clauses: 220 });
    const peaks = (text: string): number =>
      metricValue(text, 'satfarm_solver_peak_rss_bytes_count', { game: 'cnf' });
    expect(peaks(after) + peaks(front2) - peaks(before)).toBeGreaterThanOrEqual(1);
    expect(
      metricValue(after, 'satfarm_queue_jobs', { queue: 'satfarm-horizons', state: 'completed' }),
    ).toBeGreaterThanOrEqual(1);
    // BullMQ's counters are read from Redis: farm-wide, the same on either replica.
    for (const queue of ['satfarm-horizons', 'satfarm-reports'])
      expect(metricValue(after, 'bullmq_job_completed_total', { queue })).toBeGreaterThanOrEqual(1);
    expect(after).toContain('# TYPE bullmq_job_failed_total counter');
  });

  it('solves a Hex-a-Hop level from a level file the farm lists (SATFARM_LEVEL_FILES)', async () => {
    const job = await finishedJob({
      game: 'hexahop',
      instance: { level: 'Orbital', levels: listedLevels() },
    });
    expect(job).toMatchObject({ status: 'optimal', verified: true });
    // No solver named, none set for the farm (SATFARM_SOLVER): the game's own, cadical for Hex-a-Hop.
    expect(job.stats.solver).toMatch(/^cadical/);
  });

  it("shows a horizon's solver calls when the worker's lazy encoding asked for refinement", async () => {
    // At 2 moves, a model exploding the laser the game's order spares would win: the worker cuts
    // it and solves again, and 2 is UNSAT only after more than one call.
    const job = await finishedJob({
      game: 'hexahop',
      instance: {
        map: ['.....', '.o.L.', '.gLL.', '.LIo.', '.....'],
        start: [3, 3],
        items: [[1, 3, 'jump']],
      },
    });
    expect(job).toMatchObject({ status: 'optimal', horizon: 3, verified: true });
    const below = job.horizons.find((h) => h.t === 2);
    expect(below?.result).toBe('unsat');
    expect(below?.rounds).toBeGreaterThan(1);
  });

  it('encodes every horizon of a job with the encoding choices it names, and shows them on the job', async () => {
    // A laser whose shot destroys the green beyond it: the move budget counting shots applies.
    const instance = { map: ['ogLg', '..og'], start: [0, 0] };
    const plain = await finishedJob({ game: 'hexahop', instance, options: { quickPlan: false } });
    const budgeted = await finishedJob({
      game: 'hexahop',
      instance,
      options: { quickPlan: false, encoding: { shotBudget: true } },
    });
    expect(plain).toMatchObject({ status: 'optimal', verified: true });
    expect(budgeted).toMatchObject({
      status: 'optimal',
      horizon: plain.horizon,
      encoding: { shotBudget: true },
    });
    expect(plain.encoding).toBeUndefined();
    // The workers encoded with the choice: the formula of a horizon both ran is larger. (A job's
    // own figures are those of the horizon that found its plan, which may be any above the optimum.)
    const clausesByT = (job: JobResource): Map<number, number> =>
      new Map(job.horizons.flatMap((h) => (h.clauses === undefined ? [] : [[h.t, h.clauses] as const])));
    const [before, after] = [clausesByT(plain), clausesByT(budgeted)];
    const common = Math.max(...[...before.keys()].filter((t) => after.has(t)));
    expect(common).toBeGreaterThan(0);
    expect(after.get(common)).toBeGreaterThan(before.get(common)!);
  });

  it("starts a job from the client's plan: replayed first, then only the horizon below it runs", async () => {
    const first = await finishedJob({ game: 'hexahop', instance: { level: 'Hive' } });
    expect(first).toMatchObject({ status: 'optimal', horizon: 24 });
    // The finished job itself is a plan the farm reads (its `solution`).
    const again = await finishedJob({
      game: 'hexahop',
      instance: { level: 'Hive' },
      options: { policy: 'bracket', parallelism: 1, plan: first },
    });
    expect(again).toMatchObject({ status: 'optimal', horizon: 24, solution: first.solution });
    expect(again.horizons.map(({ t, result, by }) => ({ t, result, by }))).toEqual([
      { t: 23, result: 'unsat', by: undefined },
      { t: 24, result: 'sat', by: 'given plan' },
    ]);
  });

  it("finds a Hex-a-Hop job's quick plan beside its sweep, and leaves it out with quickPlan false", async () => {
    // Deadly Snowflake's quick plan (the beam, 0.2 s in bench/hexahop) is its optimum, 22 moves; one
    // slot climbing from the lower bound takes seconds to get there, so the plan comes first.
    const quick = await finishedJob({
      game: 'hexahop',
      instance: { level: 'Deadly Snowflake' },
      options: { parallelism: 1 },
    });
    expect(quick).toMatchObject({ status: 'optimal', horizon: 22, verified: true });
    expect(quick.horizons.filter((h) => h.by !== undefined)).toEqual([
      expect.objectContaining({ t: 22, result: 'sat', by: 'quick plan' }),
    ]);
    expect(quick.horizons.find((h) => h.t === 21)?.result).toBe('unsat');
    // The replica that took the job ran the search, and counted it.
    const found = async (url: string): Promise<number> =>
      metricValue((await http<string>(url, 'GET', '/metrics')).body, 'satfarm_quick_plans_total', {
        game: 'hexahop',
        outcome: 'found',
      });
    expect(await found(front.url)).toBeGreaterThanOrEqual(1);
    const without = await finishedJob({
      game: 'hexahop',
      instance: { level: 'Hive' },
      options: { quickPlan: false },
    });
    expect(without).toMatchObject({ status: 'optimal', horizon: 24 });
    expect(without.horizons.some((h) => h.by !== undefined)).toBe(false);
  });

  it("gives up a job's quick-plan search at the job's deadline", async () => {
    // Forced Fire's beam takes 1 to 2 s; the job's 0.3 s ends first, and its search with it.
    const outcomes = async (): Promise<{ found: number; none: number }> => {
      const body = (await http<string>(serving.url, 'GET', '/metrics')).body;
      const count = (outcome: string): number =>
        metricValue(body, 'satfarm_quick_plans_total', { game: 'hexahop', outcome });
      return { found: count('found'), none: count('none') };
    };
    const before = await outcomes();
    const created = await http<{ id: string }>(
      serving.url,
      'POST',
      '/v1/jobs',
      { game: 'hexahop', instance: { level: 'Forced Fire' }, options: { parallelism: 1, timeoutSec: 0.3 } },
      auth,
    );
    expect(created.status).toBe(201);
    await progress.subscribe({ jobId: created.body.id });
    expect((await progress.jobEnd(created.body.id)).status).toBe('unknown');
    // The search ends on its thread after the job (the thread starts with its first search, seconds
    // on a loaded machine): only the API's metrics tell when.
    const after = await waitUntil(
      async () => {
        const now = await outcomes();
        return now.found + now.none > before.found + before.none && now;
      },
      { what: 'the quick-plan search counted in /metrics', timeoutMs: 30_000, everyMs: 100 },
    );
    // Without the deadline the beam would have run on and found its 49-move plan.
    expect({ found: after.found - before.found, none: after.none - before.none }).toEqual({
      found: 0,
      none: 1,
    });
  });

  it('lists jobs by state and answers 404 for unknown ones', async () => {
    const created = await http<{ id: string }>(
      serving.url,
      'POST',
      '/v1/jobs',
      { game: 'cnf', instance: 'p cnf 1 2\n1 0\n-1 0\n' },
      auth,
    );
    await progress.subscribe({ jobId: created.body.id });
    expect((await progress.jobEnd(created.body.id)).status).toBe('unsatisfiable');
    const listed = await http<{ jobs: JobResource[] }>(
      serving.url,
      'GET',
      '/v1/jobs?state=unsatisfiable',
      undefined,
      auth,
    );
    expect(listed.status).toBe(200);
    expect(listed.body.jobs.map((j) => j.id)).toContain(created.body.id);
    expect(listed.body.jobs.every((j) => j.status === 'unsatisfiable')).toBe(true);
    const running = await http<{ jobs: JobResource[] }>(
      serving.url,
      'GET',
      '/v1/jobs?state=running',
      undefined,
      auth,
    );
    expect(running.body.jobs.map((j) => j.id)).not.toContain(created.body.id);
    expect((await http(serving.url, 'GET', '/v1/jobs/no-such-job', undefined, auth)).status).toBe(404);
    expect((await http(serving.url, 'DELETE', '/v1/jobs/no-such-job', undefined, auth)).status).toBe(404);
    expect((await http(serving.url, 'GET', '/v1/batches/no-such-batch', undefined, auth)).status).toBe(404);
  });

  it('refuses a list page of no jobs and an unknown query parameter with 400 naming it', async () => {
    const get = (path: string) =>
      http<{ field: string; jobs: JobResource[] }>(serving.url, 'GET', path, undefined, auth);
    for (const [path, field] of [
      ['/v1/jobs?limit=0', 'query.limit'],
      ['/v1/jobs?state=optimal&limit=0', 'query.limit'],
      ['/v1/jobs?limit=501', 'query.limit'],
      ['/v1/jobs?foo=bar', 'query.foo'],
      ['/v1/jobs?limit=5&stat=optimal', 'query.stat'],
    ] as const) {
      const answer = await get(path);
      expect({ path, status: answer.status, field: answer.body.field }).toEqual({ path, status: 400, field });
    }
    const page = await get('/v1/jobs?limit=1');
    expect(page.body).toMatchObject({ offset: 0, limit: 1 });
    expect(page.body.jobs.length).toBeLessThanOrEqual(1);
  });

  it('answers a path id that is not valid percent-encoding with 400 naming id', async () => {
    for (const [method, path] of [
      ['GET', '/v1/jobs/%ZZ'],
      ['DELETE', '/v1/jobs/%ZZ'],
      ['GET', '/v1/batches/%ZZ'],
      ['GET', '/v1/jobs/%E0%A4%A'],
    ] as const) {
      const answer = await http<{
        field: string;
        error: string;
        issues: Array<{ field: string; reason: string }>;
      }>(serving.url, method, path, undefined, auth);
      expect({ path, status: answer.status, error: answer.body.error, field: answer.body.field }).toEqual({
        path,
        status: 400,
        error: 'Bad Request',
        field: 'id',
      });
      expect(answer.body.issues[0]?.reason).toMatch(/not a valid URL-encoded id/);
    }
  });

  const badBodies: Array<[string, unknown, string]> = [
    ['no game', { instance: 'p cnf 1 1\n1 0\n' }, 'game'],
    ['an unknown game', { game: 'chess', instance: 'x' }, 'game'],
    ['a game named like a member of every object', { game: '__proto__', instance: 'x' }, 'game'],
    ['a game named constructor', { game: 'constructor', instance: 'x' }, 'game'],
    ['a game named toString', { game: 'toString', instance: 'x' }, 'game'],
    ['no instance', { game: 'cnf' }, 'instance'],
    ['malformed DIMACS', { game: 'cnf', instance: 'p cnf 2 1\n1 x 0\n' }, 'instance'],
    ['a field of the instance', { game: 'staircase', instance: { optimum: 0 } }, 'instance.optimum'],
    [
      'a negative maxHorizon',
      { game: 'staircase', instance: { optimum: 3 }, options: { maxHorizon: -1 } },
      'options.maxHorizon',
    ],
    [
      'a maxHorizon over the farm limit',
      { game: 'staircase', instance: { optimum: 3 }, options: { maxHorizon: 51 } },
      'options.maxHorizon',
    ],
    [
      'an unknown option',
      { game: 'cnf', instance: 'p cnf 1 1\n1 0\n', options: { colour: 'red' } },
      'options.colour',
    ],
    [
      'an unknown solver',
      { game: 'cnf', instance: 'p cnf 1 1\n1 0\n', options: { solver: 'glucose' } },
      'options.solver',
    ],
    [
      'a priority out of range',
      { game: 'cnf', instance: 'p cnf 1 1\n1 0\n', options: { priority: 101 } },
      'options.priority',
    ],
    [
      'unique on a planning game',
      { game: 'staircase', instance: { optimum: 3 }, options: { unique: true } },
      'options.unique',
    ],
    [
      'a Hex-a-Hop level file the farm does not list (read nothing, say nothing of it)',
      { game: 'hexahop', instance: { level: 'Hive', levels: '/etc/hostname' } },
      'instance.levels',
    ],
    [
      'an unknown policy',
      { game: 'staircase', instance: { optimum: 3 }, options: { policy: 'guess' } },
      'options.policy',
    ],
    [
      'a plan with a move the game does not have',
      { game: 'hexahop', instance: { level: 'Hive' }, options: { plan: ['N', 'UP'] } },
      'options.plan',
    ],
    [
      'a plan that does not win',
      { game: 'hexahop', instance: { level: 'Hive' }, options: { plan: 'N' } },
      'options.plan',
    ],
    [
      'a plan without moves',
      { game: 'hexahop', instance: { level: 'Hive' }, options: { plan: { steps: [] } } },
      'options.plan.moves',
    ],
    [
      'a plan for a game without horizons',
      { game: 'cnf', instance: 'p cnf 1 1\n1 0\n', options: { plan: [] } },
      'options.plan',
    ],
    [
      'an encoding choice the game lacks',
      { game: 'hexahop', instance: { level: 'Hive' }, options: { encoding: { shotBudjet: true } } },
      'options.encoding.shotBudjet',
    ],
    [
      'an encoding choice with a value it does not take',
      { game: 'hexahop', instance: { level: 'Hive' }, options: { encoding: { shotBudget: 'yes' } } },
      'options.encoding.shotBudget',
    ],
    [
      'encoding choices for a game without any',
      { game: 'cnf', instance: 'p cnf 1 1\n1 0\n', options: { encoding: {} } },
      'options.encoding',
    ],
  ];
  it.each(badBodies)(
    'rejects %s with 400 naming the field, and queues nothing',
    async (_name, body, field) => {
      const answer = await http<{ field: string; issues: Array<{ field: string; reason: string }> }>(
        serving.url,
        'POST',
        '/v1/jobs',
        body,
        auth,
      );
      expect(answer.status).toBe(400);
      expect(answer.body.field).toBe(field);
      expect(answer.body.issues[0]?.reason).toBeTruthy();
    },
  );

  it('rejects a bad job inside a batch naming its index, and stores none of the batch', async () => {
    const jobs = [
      { game: 'cnf', instance: 'p cnf 1 1\n1 0\n' },
      { game: 'cnf', instance: 'p cnf 1 1\n1 0\n' },
      { game: 'nope', instance: 'x' },
    ];
    const before = await http<{ jobs: JobResource[] }>(
      serving.url,
      'GET',
      '/v1/jobs?limit=500',
      undefined,
      auth,
    );
    const answer = await http<{ field: string }>(serving.url, 'POST', '/v1/batches', { jobs }, auth);
    expect(answer.status).toBe(400);
    expect(answer.body.field).toBe('jobs[2].game');
    const after = await http<{ jobs: JobResource[] }>(
      serving.url,
      'GET',
      '/v1/jobs?limit=500',
      undefined,
      auth,
    );
    expect(after.body.jobs.length).toBe(before.body.jobs.length);
    expect((await http(serving.url, 'POST', '/v1/batches', { jobs: [] }, auth)).status).toBe(400);
    expect((await http(serving.url, 'POST', '/v1/jobs', '{"game": "cnf",', auth)).status).toBe(400);
    expect(
      (await http<{ field: string }>(serving.url, 'GET', '/v1/jobs?state=bogus', undefined, auth)).body.field,
    ).toBe('query.state');
  });

  it('refuses a body over the size limit with 413, one it cannot decode with 415', async () => {
    const big = { game: 'cnf', instance: `p cnf 1 1\n${'1 0\n'.repeat(60_000)}` };
    const body = { game: 'cnf', instance: 'p cnf 1 1\n1 0\n' };
    const cases = [
      [big, {}, 413, 'Payload Too Large'],
      [body, { 'content-type': 'application/json; charset=klingon' }, 415, 'Unsupported Media Type'],
      [body, { 'content-encoding': 'br2' }, 415, 'Unsupported Media Type'],
    ] as const;
    for (const [sent, headers, status, error] of cases) {
      const answer = await http<{ error: string; field: string }>(serving.url, 'POST', '/v1/jobs', sent, {
        ...auth,
        ...headers,
      });
      expect({ status: answer.status, error: answer.body.error, field: answer.body.field }).toEqual({
        status,
        error,
        field: '(body)',
      });
    }
  });

  it('requires an API key on /v1, /progress and /queues, but not on /health and /metrics', async () => {
    const body = { game: 'cnf', instance: 'p cnf 1 1\n1 0\n' };
    expect((await http(serving.url, 'POST', '/v1/jobs', body)).status).toBe(401);
    expect(
      (await http(serving.url, 'POST', '/v1/jobs', body, { authorization: 'Bearer wrong-key-0123456789' }))
        .status,
    ).toBe(401);
    expect((await http(serving.url, 'GET', '/v1/jobs')).status).toBe(401);
    expect((await http(serving.url, 'GET', '/health')).status).toBe(200);
    expect((await http(serving.url, 'GET', '/metrics')).status).toBe(200);
    await expect(ProgressClient.connect(serving.url)).rejects.toThrow(/unauthorized/);
    const queues = await http(serving.url, 'GET', '/queues');
    expect(queues.status).toBe(401);
    expect(queues.headers.get('www-authenticate')).toMatch(/Basic/);
    const basic = `Basic ${Buffer.from(`ops:${KEY}`).toString('base64')}`;
    expect((await http(serving.url, 'GET', '/queues', undefined, { authorization: basic })).status).toBe(200);
  });

  it('shows the queues at /queues read-only: its write routes are refused and change nothing', async () => {
    const basic = { authorization: `Basic ${Buffer.from(`ops:${KEY}`).toString('base64')}` };
    const board = (method: string, path: string, body?: unknown) =>
      http<{ queues?: Array<{ name: string; readOnlyMode: boolean }> }>(
        serving.url,
        method,
        `/queues/api${path}`,
        body,
        basic,
      );
    const connection = replicas.redis();
    const horizons = new Queue(QueueName.horizons, { connection, prefix: replicas.prefix });
    const reports = new Queue(QueueName.reports, { connection, prefix: replicas.prefix });
    try {
      const completed = await horizons.getCompletedCount();
      const horizonJob = { jobId: 'intruder', game: 'cnf', t: 0 };
      for (const [method, path, body] of [
        ['POST', '/queues/satfarm-horizons/add', { name: 'intruder', data: horizonJob }],
        ['POST', '/queues/satfarm-reports/add', { name: 'intruder', data: {} }],
        ['PUT', '/queues/satfarm-horizons/pause', undefined],
        ['PUT', '/queues/satfarm-horizons/clean/completed', undefined],
        ['PUT', '/queues/satfarm-horizons/retry/failed', undefined],
        ['PUT', '/queues/satfarm-horizons/promote', undefined],
        ['PUT', '/queues/satfarm-horizons/empty', undefined],
      ] as const)
        expect({ path, status: (await board(method, path, body)).status }).toEqual({ path, status: 405 });
      // Pause-all passes over read-only queues.
      await board('PUT', '/queues/pause');
      for (const queue of [horizons, reports]) {
        expect(await queue.isPaused()).toBe(false);
        const jobs = await queue.getJobs([
          'waiting',
          'prioritized',
          'delayed',
          'active',
          'completed',
          'failed',
        ]);
        expect(jobs.filter((j) => j.name === 'intruder')).toEqual([]);
      }
      expect(await horizons.getCompletedCount()).toBeGreaterThanOrEqual(completed);
      // Reading still works.
      const queues = await board('GET', '/queues');
      expect(queues.status).toBe(200);
      expect(queues.body.queues?.map((q) => [q.name, q.readOnlyMode])).toEqual(
        expect.arrayContaining([
          ['satfarm-horizons', true],
          ['satfarm-reports', true],
        ]),
      );
    } finally {
      await Promise.all([horizons.close(), reports.close()]);
      await connection.quit();
    }
  });

  it('limits requests per key', async () => {
    const headers = { authorization: `Bearer ${RATE_KEY}` };
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await http(front.url, 'GET', '/v1/jobs?limit=1', undefined, headers)).status);
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses.slice(20).every((s) => s === 429)).toBe(true);
    // Another key has its own budget.
    expect((await http(front.url, 'GET', '/v1/jobs?limit=1', undefined, auth)).status).toBe(200);
  });

  it('serves health (Redis checked), OpenAPI at /docs', async () => {
    const health = await http<{ status: string; info: { redis: { status: string } } }>(
      serving.url,
      'GET',
      '/health',
    );
    expect(health.body).toMatchObject({ status: 'ok', info: { redis: { status: 'up' } } });
    expect((await http(serving.url, 'GET', '/health/live')).status).toBe(200);
    expect((await http(serving.url, 'GET', '/docs')).status).toBe(200);
    const openapi = await http<{ paths: Record<string, unknown> }>(serving.url, 'GET', '/docs-json');
    expect(Object.keys(openapi.body.paths)).toEqual(
      expect.arrayContaining([
        '/v1/jobs',
        '/v1/jobs/{id}',
        '/v1/batches',
        '/v1/batches/{id}',
        '/health',
        '/metrics',
      ]),
    );
  });

  it('completes a batch of 200 small jobs, each answer checked', async () => {
    const formulas = Array.from({ length: 200 }, (_, i) => random3Sat(20, 70 + (i % 30), i + 1));
    const created = await http<{ batchId: string; jobIds: string[] }>(
      serving.url,
      'POST',
      '/v1/batches',
      { jobs: formulas.map((instance) => ({ game: 'cnf', instance })) },
      auth,
    );
    expect(created.status).toBe(201);
    const { batchId, jobIds } = created.body;
    expect(jobIds).toHaveLength(200);
    expect((await progress.subscribe({ batchId })).ok).toBe(true);
    const ended = await progress.allEnded(jobIds);
    expect(ended.size).toBe(200);

    const batch = (await http<BatchResource>(serving.url, 'GET', `/v1/batches/${batchId}`, undefined, auth))
      .body;
    expect(batch.done).toBe(true);
    expect((batch.counts.satisfiable ?? 0) + (batch.counts.unsatisfiable ?? 0)).toBe(200);
    const jobs = await Promise.all(
      jobIds.map(
        async (id) => (await http<JobResource>(serving.url, 'GET', `/v1/jobs/${id}`, undefined, auth)).body,
      ),
    );
    jobs.forEach((job, i) => {
      expect(job.batchId).toBe(batchId);
      if (job.status === 'satisfiable')
        expect(satisfies(formulas[i]!, (job.solution as { model: number[] }).model)).toBe(true);
      else expect(job.status).toBe('unsatisfiable');
    });
  });

  it('shows the farm at a glance, and a running horizon’s conflicts live on every replica', async () => {
    // Horizon 0 is PHP(13, 12): kissat searches it for minutes, printing its conflicts as it goes.
    const created = await http<{ id: string }>(
      serving.url,
      'POST',
      '/v1/jobs',
      {
        game: 'staircase',
        instance: { optimum: 2, lower: 1, holes: { 0: 12 } },
        options: { parallelism: 1 },
      },
      auth,
    );
    const jobId = created.body.id;
    const other = await ProgressClient.connect(front.url, KEY);
    try {
      await Promise.all([progress.subscribe({ jobId }), other.subscribe({ jobId })]);
      const live = (e: { jobId: string; t: number; state: string; stats?: { conflicts?: number } }) =>
        e.jobId === jobId && e.t === 0 && e.state === 'running' && (e.stats?.conflicts ?? 0) > 0;
      const [here, there] = await Promise.all([progress.horizonWhere(live), other.horizonWhere(live)]);
      expect(there.stats?.vars).toBe(here.stats?.vars);
      expect(there.stats?.solver).toMatch(/^kissat/);
      expect(here.ms).toBeGreaterThanOrEqual(1000);

      // `front` limits requests to 20 a minute: ask `serving` (both read the same Redis).
      const farm = await http<FarmOverview>(serving.url, 'GET', '/v1/farm', undefined, auth);
      expect(farm.status).toBe(200);
      expect(farm.body.activeSolvers).toBeGreaterThanOrEqual(1);
      expect(farm.body.jobs.running).toBeGreaterThanOrEqual(1);
      // Only `serving` hosts solver slots; `front` is an API alone.
      expect(farm.body.workers.map((w) => w.name)).toEqual([`${hostname()}:${serving.pid}`]);
      expect(farm.body.queues.horizons.active).toBe(farm.body.activeSolvers);
      expect((await http(serving.url, 'GET', '/v1/farm')).status).toBe(401);
      // A running job shows its instance drawn (the answer's drawing comes at the end).
      const running = await http<JobResource>(serving.url, 'GET', `/v1/jobs/${jobId}`, undefined, auth);
      expect(running.body).toMatchObject({ status: 'running', render: { optimum: 2 } });
    } finally {
      other.close();
      await http(serving.url, 'DELETE', `/v1/jobs/${jobId}`, undefined, auth);
    }
    expect((await progress.jobEnd(jobId)).status).toBe('cancelled');
    // Each replica relays the progress to its own clients only: no event reaches a client twice.
    const seen = progress.horizons.filter((e) => e.jobId === jobId && e.stats?.conflicts !== undefined);
    expect(new Set(seen.map((e) => `${e.ms}:${e.stats!.conflicts}`)).size).toBe(seen.length);
  });
});
