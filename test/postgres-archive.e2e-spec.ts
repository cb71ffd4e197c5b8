import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ArchiveConnectionError, PostgresJobArchive } from '../apps/api/src/archive/postgres-job.archive.js';
import type { JobArchive } from '../apps/api/src/coordinator/job-archive.js';
import type { JobResource, JobStatus } from '@satfarm/queue';

import { deletePrefix, startServe, TEST_REDIS_URL, uniquePrefix } from './support/farm-processes.js';
import { repoRoot } from './support/run-cli.js';
import {
  createTestDatabase as createDatabase,
  databaseUrl,
  dropTestDatabases,
  queryDatabase,
} from './support/test-database.js';

const opened: JobArchive[] = [];

function open(url: string, options: { pageSize?: number } = {}): PostgresJobArchive {
  const archive = new PostgresJobArchive({ url, ...options });
  opened.push(archive);
  return archive;
}

const T0 = Date.parse('2026-11-28T19:00:00.000Z');
const iso = (ms: number): string => new Date(ms).toISOString();

/** A finished job resource, `minutes` after T0. */
function resource(id: string, fields: Partial<JobResource> & { minutes?: number } = {}): JobResource {
  const { minutes = 0, ...rest } = fields;
  return {
    id,
    game: 'cube',
    status: 'optimal',
    verified: true,
    bounds: { lower: 3, upper: 3 },
    horizons: [],
    stats: { vars: 10, clauses: 20, solver: 'kissat', wallMs: 5 },
    createdAt: iso(T0 + minutes * 60_000),
    finishedAt: iso(T0 + minutes * 60_000 + 1000),
    error: null,
    ...rest,
  };
}

async function collect(results: AsyncIterable<JobResource>): Promise<JobResource[]> {
  const all: JobResource[] = [];
  for await (const job of results) all.push(job);
  return all;
}

let url: string;
let sut: PostgresJobArchive;

beforeAll(async () => {
  url = await createDatabase();
  sut = open(url);
  await sut.migrate();
});

afterAll(async () => {
  await Promise.all(opened.map((archive) => archive.close()));
  await dropTestDatabases();
});

describe(PostgresJobArchive.name, () => {
  it('migrates a new database once, however many replicas start together, and again is a no-op', async () => {
    const fresh = await createDatabase();
    const replicas = [open(fresh), open(fresh), open(fresh)];
    await Promise.all(replicas.map((archive) => archive.migrate()));
    const applied = await queryDatabase<{ name: string }>(fresh, 'SELECT name FROM satfarm_migrations');
    expect(applied.length).toBeGreaterThan(0);
    await replicas[0]!.migrate();
    expect(await queryDatabase(fresh, 'SELECT name FROM satfarm_migrations')).toEqual(applied);
    // The schema works: a batch written by one replica is read by another.
    await replicas[1]!.saveBatch({ batchId: 'b-mig', createdAt: T0, size: 1 });
    expect(await replicas[2]!.batch('b-mig')).toMatchObject({ batchId: 'b-mig', size: 1, counts: {} });
  });

  it('keeps one row a job id, the last write winning', async () => {
    await sut.saveJobs([{ resource: resource('idem-1', { status: 'unknown' }) }]);
    await sut.saveJobs([
      { resource: resource('idem-1', { status: 'optimal', horizon: 3, summary: "R U R'" }) },
      { resource: resource('idem-2') },
    ]);
    expect(await sut.job('idem-1')).toMatchObject({ id: 'idem-1', status: 'optimal', horizon: 3 });
    const rows = await queryDatabase<{ id: string; status: string; summary: string }>(
      url,
      "SELECT id, status, summary FROM jobs WHERE id LIKE 'idem-%' ORDER BY id",
    );
    expect(rows).toEqual([
      { id: 'idem-1', status: 'optimal', summary: "R U R'" },
      { id: 'idem-2', status: 'optimal', summary: null },
    ]);
    // The same id twice in one write is written once, as its last version says.
    await sut.saveJobs([
      { resource: resource('idem-2', { status: 'unknown' }) },
      { resource: resource('idem-2', { status: 'unsatisfiable' }) },
    ]);
    expect((await sut.job('idem-2'))?.status).toBe('unsatisfiable');
    expect([...(await sut.jobs(['idem-1', 'idem-2', 'nowhere'])).keys()].sort()).toEqual([
      'idem-1',
      'idem-2',
    ]);
    expect(await sut.job('nowhere')).toBeUndefined();
  });

  it("records a batch's growth but never shrinks it, and finds it by its key", async () => {
    await sut.saveBatch({ batchId: 'grow', createdAt: T0, label: 'cubes', key: 'k-grow', size: 1000 });
    await sut.saveBatch({ batchId: 'grow', createdAt: T0, size: 2000 });
    await sut.saveBatch({ batchId: 'grow', createdAt: T0, label: 'cubes', key: 'k-grow', size: 1000 });
    expect(await sut.batch('grow')).toMatchObject({ size: 2000, label: 'cubes', key: 'k-grow' });
    expect(await sut.batchByKey('k-grow')).toEqual({
      batchId: 'grow',
      createdAt: T0,
      label: 'cubes',
      key: 'k-grow',
      size: 2000,
    });
    expect(await sut.batchByKey('k-none')).toBeUndefined();
    expect(await sut.batch('none')).toBeUndefined();
  });

  it('lists batches newest first with their counts, finished once every job is archived', async () => {
    const archive = open(await createDatabase());
    await archive.migrate();
    for (const [i, size] of [2, 3, 1].entries())
      await archive.saveBatch({ batchId: `list-${i}`, createdAt: T0 + i * 60_000, size });
    await archive.saveJobs([
      { resource: resource('l0-a', { batchId: 'list-0', minutes: 5 }), position: 0 },
      { resource: resource('l0-b', { batchId: 'list-0', minutes: 9, status: 'unknown' }), position: 1 },
      { resource: resource('l1-a', { batchId: 'list-1', minutes: 7 }), position: 0 },
      { resource: resource('l1-b', { batchId: 'list-1', minutes: 8, status: 'failed' }), position: 1 },
    ]);
    const list = await archive.batches(0, 10);
    expect(list.map((b) => b.batchId)).toEqual(['list-2', 'list-1', 'list-0']);
    expect(list[0]).toMatchObject({ counts: {}, size: 1 });
    expect(list[0]!.finishedAt).toBeUndefined();
    expect(list[1]).toMatchObject({ counts: { optimal: 1, failed: 1 }, size: 3 });
    expect(list[1]!.finishedAt).toBeUndefined();
    expect(list[2]).toMatchObject({
      counts: { optimal: 1, unknown: 1 },
      finishedAt: T0 + 9 * 60_000 + 1000,
    });
    expect((await archive.batches(1, 1)).map((b) => b.batchId)).toEqual(['list-1']);
    expect(await archive.batches(3, 10)).toEqual([]);
    // The last job of list-1 ends: it is finished at that job's end.
    await archive.saveJobs([{ resource: resource('l1-c', { batchId: 'list-1', minutes: 30 }), position: 2 }]);
    expect((await archive.batch('list-1'))?.finishedAt).toBe(T0 + 30 * 60_000 + 1000);
  });

  it("pages a batch's jobs in submission order, all of them or in one status, without drawings", async () => {
    const statuses: JobStatus[] = ['optimal', 'unknown', 'optimal', 'failed', 'optimal', 'optimal'];
    // Written out of order: the order read is the positions'.
    await sut.saveJobs(
      statuses
        .map((status, i) => ({
          resource: resource(`page-${i}`, { batchId: 'page', status, render: '<svg/>' }),
          position: i,
        }))
        .reverse(),
    );
    const ids = (jobs: JobResource[]): string[] => jobs.map((j) => j.id);
    expect(ids(await sut.batchJobs('page', { offset: 0, limit: 4 }))).toEqual([
      'page-0',
      'page-1',
      'page-2',
      'page-3',
    ]);
    expect(ids(await sut.batchJobs('page', { offset: 4, limit: 4 }))).toEqual(['page-4', 'page-5']);
    expect(ids(await sut.batchJobs('page', { status: 'optimal', offset: 1, limit: 2 }))).toEqual([
      'page-2',
      'page-4',
    ]);
    expect(ids(await sut.batchJobs('page', { status: 'failed', offset: 0, limit: 10 }))).toEqual(['page-3']);
    const [first] = await sut.batchJobs('page', { offset: 0, limit: 1 });
    expect(first).not.toHaveProperty('render');
    expect(await sut.job('page-0')).toHaveProperty('render', '<svg/>');
  });

  it('streams every job of a 3,000-job batch in order, a page at a time', async () => {
    const size = 3000;
    const paged = open(url, { pageSize: 500 });
    await sut.saveBatch({ batchId: 'big', createdAt: T0, size: size + 1 });
    // Written in shuffled groups, as jobs end in any order.
    const order = Array.from({ length: size }, (_, i) => (i * 7919) % size);
    for (let start = 0; start < size; start += 700)
      await sut.saveJobs(
        order.slice(start, start + 700).map((i) => ({
          resource: resource(`big-${String(i).padStart(4, '0')}`, { batchId: 'big' }),
          position: i,
        })),
      );
    const stream = paged.batchResults('big')[Symbol.asyncIterator]();
    const first = await stream.next();
    expect(first.value).toMatchObject({ id: 'big-0000' });
    // A job archived after reading began is read too: the reader did not take the batch at once.
    await sut.saveJobs([{ resource: resource('big-late', { batchId: 'big' }), position: size }]);
    const rest: JobResource[] = [];
    for (let next = await stream.next(); !next.done; next = await stream.next()) rest.push(next.value);
    const ids = [first.value as JobResource, ...rest].map((j) => j.id);
    expect(ids).toHaveLength(size + 1);
    expect(ids.slice(0, size)).toEqual(
      Array.from({ length: size }, (_, i) => `big-${String(i).padStart(4, '0')}`),
    );
    expect(ids[size]).toBe('big-late');
    expect(await collect(paged.batchResults('none'))).toEqual([]);
  });

  it('purges jobs that ended before a time, and the batches left without jobs', async () => {
    const archive = open(await createDatabase());
    await archive.migrate();
    await archive.saveBatch({ batchId: 'old', createdAt: T0, size: 2 });
    await archive.saveBatch({ batchId: 'mixed', createdAt: T0, size: 2 });
    await archive.saveBatch({ batchId: 'new', createdAt: T0 + 100 * 60_000, size: 1 });
    await archive.saveJobs([
      { resource: resource('old-0', { batchId: 'old', minutes: 1 }), position: 0 },
      { resource: resource('old-1', { batchId: 'old', minutes: 2 }), position: 1 },
      { resource: resource('mixed-0', { batchId: 'mixed', minutes: 3 }), position: 0 },
      { resource: resource('mixed-1', { batchId: 'mixed', minutes: 60 }), position: 1 },
      { resource: resource('loose', { minutes: 4 }) },
      { resource: resource('new-0', { batchId: 'new', minutes: 101 }), position: 0 },
    ]);
    expect(await archive.purgeFinishedBefore(T0 + 30 * 60_000)).toBe(4);
    expect([
      ...(await archive.jobs(['old-0', 'old-1', 'mixed-0', 'mixed-1', 'loose', 'new-0'])).keys(),
    ]).toEqual(['mixed-1', 'new-0']);
    expect(await archive.batch('old')).toBeUndefined();
    expect(await archive.batch('mixed')).toMatchObject({ counts: { optimal: 1 } });
    // A batch created after the cutoff stays, whatever is archived of it.
    expect(await archive.purgeFinishedBefore(T0 + 90 * 60_000)).toBe(1);
    expect((await archive.batches(0, 10)).map((b) => b.batchId)).toEqual(['new']);
    expect(await archive.purgeFinishedBefore(T0 + 90 * 60_000)).toBe(0);
  });

  it("keeps the portfolio's record of races, every concurrent race counted, per game and expected answer", async () => {
    const record = sut.portfolioRecord();
    const race = (winner: string, loser: string, ms: number) =>
      record.add('cube', 'unsat', [
        { config: winner, won: true, ms },
        { config: loser, won: false, ms: ms + 5 },
      ]);
    // Twenty races from five writers at once: none is lost to another's update.
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 4 === 0
          ? race('kissat/default/0', 'kissat/sat/1', 100)
          : race('kissat/sat/1', 'kissat/default/0', 10),
      ),
    );
    const tallies = await open(url).portfolioRecord().tallies('cube', 'unsat');
    expect(Object.fromEntries(tallies)).toEqual({
      'kissat/default/0': { runs: 20, wins: 5, winMs: 500 },
      'kissat/sat/1': { runs: 20, wins: 15, winMs: 150 },
    });
    expect((await record.tallies('cube', 'sat')).size).toBe(0);
    expect((await record.tallies('snake', 'unsat')).size).toBe(0);
  });

  it('names the database, never the password, when it cannot connect', async () => {
    const refused = open('postgres://satfarm:hunter2@127.0.0.1:1/farm');
    const error = await refused.migrate().catch((err: unknown) => err);
    expect(error).toBeInstanceOf(ArchiveConnectionError);
    expect((error as Error).message).toMatch(/^SATFARM_DATABASE_URL: .*127\.0\.0\.1:1\/farm/);
    expect((error as Error).message).not.toMatch(/hunter2/);

    const absent = open(databaseUrl(`satfarm_test_${process.pid}_missing`));
    await expect(absent.batch('x')).rejects.toThrow(
      new RegExp(`SATFARM_DATABASE_URL: .*/satfarm_test_${process.pid}_missing: .*does not exist`),
    );
  });
});

/** The error of a `satfarm serve` that must not start. */
async function serveFailure(env: NodeJS.ProcessEnv): Promise<string> {
  const farm = await startServe(['--port', '0', '--workers', '1'], env).catch((err: Error) => err);
  if (farm instanceof Error) return farm.message;
  await farm.stop();
  throw new Error(`satfarm serve started: ${farm.stderr()}`);
}

describe('satfarm serve with SATFARM_DATABASE_URL', () => {
  it('migrates the store of record when it starts', async () => {
    const database = await createDatabase();
    const prefix = uniquePrefix('pg');
    const farm = await startServe(['--port', '0', '--workers', '1'], {
      ...process.env,
      REDIS_URL: TEST_REDIS_URL,
      SATFARM_PREFIX: prefix,
      SATFARM_DATABASE_URL: database,
      SATFARM_RETENTION_DAYS: '30',
    });
    try {
      const tables = await queryDatabase<{ table_name: string }>(
        database,
        "SELECT table_name FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1",
      );
      expect(tables.map((t) => t.table_name)).toEqual([
        'batches',
        'jobs',
        'portfolio_tallies',
        'satfarm_migrations',
      ]);
    } finally {
      await farm.stop();
      await deletePrefix(prefix);
    }
    expect(farm.child.exitCode).toBe(0);
  });

  it('refuses a bad URL (exit 2) and an unreachable database, naming SATFARM_DATABASE_URL', async () => {
    const prefix = uniquePrefix('pg-bad');
    const env = { ...process.env, REDIS_URL: TEST_REDIS_URL, SATFARM_PREFIX: prefix };
    let bad: string;
    let unreachable: string;
    try {
      bad = await serveFailure({ ...env, SATFARM_DATABASE_URL: 'mysql://u:hunter2@db/farm' });
      unreachable = await serveFailure({
        ...env,
        SATFARM_DATABASE_URL: 'postgres://u:hunter2@127.0.0.1:1/farm',
      });
    } finally {
      // The queues' meta keys are written before the database is reached.
      await deletePrefix(prefix);
    }
    expect(bad).toMatch(/exited with 2: .*SATFARM_DATABASE_URL: expected postgres:\/\//s);
    expect(unreachable).toMatch(/exited with [1-9]\d*: .*SATFARM_DATABASE_URL: .*127\.0\.0\.1:1\/farm/s);
    for (const message of [bad, unreachable]) expect(message).not.toMatch(/hunter2/);
  });

  it('finds its migrations in the build', async () => {
    const built = (await import(
      pathToFileURL(join(repoRoot, 'dist/apps/api/src/archive/postgres-job.archive.js')).href
    )) as { PostgresJobArchive: typeof PostgresJobArchive };
    const database = await createDatabase();
    const archive = new built.PostgresJobArchive({ url: database });
    opened.push(archive);
    await archive.migrate();
    await archive.saveBatch({ batchId: 'built', createdAt: T0, size: 1 });
    expect(await archive.batch('built')).toMatchObject({ batchId: 'built', size: 1 });
  });
});
