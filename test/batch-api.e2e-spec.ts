import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type BatchCreated,
  type BatchResource,
  type BatchSummary,
  FarmKeys,
  type JobRequest,
  type JobResource,
} from '@satfarm/queue';

import { csvRecords } from './support/csv-records.js';
import { type Farm, startFarm } from './support/farm.js';
import { http, ProgressClient } from './support/farm-client.js';
import { type ApiProcess, deletePrefix } from './support/farm-processes.js';
import { solversUnder } from './support/process-table.js';
import { createTestDatabase, dropTestDatabases, queryDatabase } from './support/test-database.js';
import { waitUntil } from './support/waits.js';

// Two farms of an API with solver slots in the same process: `farm` keeps everything in Redis,
// `recorded` has a store of record in a PostgreSQL database of this spec's own.
let plainFarm: Farm;
let recordedFarm: Farm;
let farm: ApiProcess;
let recorded: ApiProcess;
let database: string;
let progress: ProgressClient;

/** The CSV columns docs/batches.md lists, in order. */
const CSV_HEADER =
  'id,game,summary,status,horizon,lower,upper,solution,verified,wall_ms,created_at,finished_at,error';

/** A satisfiable formula over `vars` variables whose only model sets them all true. */
const satisfiable = (vars: number): JobRequest => ({
  game: 'cnf',
  instance: `p cnf ${vars} ${vars}\n${Array.from({ length: vars }, (_, i) => `${i + 1} 0`).join('\n')}\n`,
});
const unsatisfiable: JobRequest = { game: 'cnf', instance: 'p cnf 1 2\n1 0\n-1 0\n' };
/** A planning job whose first horizons are PHP(13, 12): kissat searches them for minutes. */
const slow: JobRequest = {
  game: 'staircase',
  instance: { optimum: 2, lower: 0, holes: { 0: 12, 1: 12 } },
  options: { parallelism: 1 },
};
/** A planning job of two horizons, the first PHP(9, 8), UNSAT in a fraction of a second. */
const brief: JobRequest = {
  game: 'staircase',
  instance: { optimum: 1, lower: 0, holes: { 0: 8 } },
  options: { parallelism: 1 },
};

/** `method path` on `on` (the plain farm by default). */
function api<T>(method: string, path: string, body?: unknown, on: ApiProcess = farm) {
  return http<T>(on.url, method, path, body);
}

/** How many jobs the plain farm holds (well under a page here). */
async function jobCount(): Promise<number> {
  return (await api<{ jobs: JobResource[] }>('GET', '/v1/jobs?limit=500')).body.jobs.length;
}

/** Creates a batch on `on`, expecting 201. */
async function createBatch(body: object, on: ApiProcess = farm): Promise<BatchCreated> {
  const created = await api<BatchCreated>('POST', '/v1/batches', body, on);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body;
}

/** Follows a batch on `client`'s websocket until it is done; answers it then. */
async function batchEnd(batchId: string, on: ApiProcess = farm, client = progress): Promise<BatchResource> {
  const ack = await client.subscribe({ batchId });
  expect(ack.ok).toBe(true);
  if (ack.batch?.done !== true) await client.batchDone(batchId);
  return (await api<BatchResource>('GET', `/v1/batches/${batchId}`, undefined, on)).body;
}

/** A batch's export in `format`, as text. */
async function results(batchId: string, format: 'jsonl' | 'csv', on: ApiProcess = farm): Promise<string> {
  const answer = await fetch(`${on.url}/v1/batches/${batchId}/results?format=${format}`);
  expect(answer.status).toBe(200);
  return answer.text();
}

/** A batch's CSV export as one object per row, keyed by the header, with the solution parsed. */
async function csvRows(batchId: string, on: ApiProcess = farm): Promise<Array<Record<string, unknown>>> {
  const [header, ...rows] = csvRecords(await results(batchId, 'csv', on));
  expect(header!.join(',')).toBe(CSV_HEADER);
  return rows.map((row) => {
    expect(row).toHaveLength(header!.length);
    const fields: Record<string, unknown> = Object.fromEntries(header!.map((name, i) => [name, row[i]]));
    if (fields.solution !== '') fields.solution = JSON.parse(fields.solution as string) as unknown;
    return fields;
  });
}

const jsonLines = (text: string): JobResource[] =>
  text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JobResource);

beforeAll(async () => {
  database = await createTestDatabase();
  [plainFarm, recordedFarm] = await Promise.all([
    startFarm({ name: 'batch-api', apis: [{ workerSlots: 2 }] }),
    startFarm({
      name: 'batch-api-pg',
      apis: [{ workerSlots: 1, env: { SATFARM_DATABASE_URL: database } }],
      progress: false,
    }),
  ]);
  ({ api: farm, progress } = plainFarm);
  recorded = recordedFarm.api;
});

afterAll(async () => {
  await Promise.all([plainFarm?.stop(), recordedFarm?.stop()]);
  await dropTestDatabases();
});

describe('the batch API', () => {
  // Made in the first test and grown in the second.
  let grown: BatchCreated;

  it('creates a batch once per key: the same key again answers it, queueing nothing', async () => {
    const body = { key: 'nightly-1', label: 'nightly, "cubes"', jobs: [satisfiable(2), unsatisfiable] };
    grown = await createBatch(body);
    expect(grown).toEqual({
      batchId: expect.any(String) as string,
      jobIds: [expect.any(String) as string, expect.any(String) as string],
      size: 2,
      existing: false,
    });
    expect(new Set(grown.jobIds).size).toBe(2);
    const jobs = await jobCount();

    const again = await api<BatchCreated>('POST', '/v1/batches', body);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ ...grown, existing: true });
    // The same key with other jobs is still that batch.
    const other = await api<BatchCreated>('POST', '/v1/batches', { ...body, jobs: [satisfiable(3)] });
    expect(other.status).toBe(200);
    expect(other.body).toMatchObject({ batchId: grown.batchId, size: 2, existing: true });
    expect(await jobCount()).toBe(jobs);

    const batch = await api<BatchResource>('GET', `/v1/batches/${grown.batchId}`);
    expect(batch.body).toMatchObject({ label: 'nightly, "cubes"', key: 'nightly-1', jobIds: grown.jobIds });
  });

  it('grows a batch a part at a time: a part again answers its ids, a wrong offset 409, a bad job 400', async () => {
    const { batchId } = grown;
    const path = `/v1/batches/${batchId}/jobs`;
    const part = { offset: 2, jobs: [satisfiable(3), satisfiable(4)] };
    const appended = await api<BatchCreated>('POST', path, part);
    expect(appended.status).toBe(201);
    expect(appended.body).toMatchObject({ batchId, size: 4, existing: false });
    expect(appended.body.jobIds).toHaveLength(2);
    const jobs = await jobCount();

    const again = await api<BatchCreated>('POST', path, part);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ batchId, jobIds: appended.body.jobIds, size: 4, existing: true });

    // Past the end, or a range reaching past it (3 + 2 > 4): not a part appended before.
    for (const offset of [6, 3]) {
      const wrong = await api<{ message: string; field: string; size: number }>('POST', path, {
        ...part,
        offset,
      });
      expect({ offset, status: wrong.status }).toEqual({ offset, status: 409 });
      expect(wrong.body).toMatchObject({
        field: 'offset',
        size: 4,
        message: expect.stringMatching(/^offset: .*4/) as string,
      });
    }
    // A batch starts with its creation: no part appends at 0.
    const zero = await api<{ field: string }>('POST', path, { ...part, offset: 0 });
    expect(zero).toMatchObject({ status: 400, body: { field: 'offset' } });
    expect((await api('POST', '/v1/batches/no-such-batch/jobs', part)).status).toBe(404);

    const bad = await api<{ field: string; issues: Array<{ field: string }> }>('POST', path, {
      offset: 4,
      jobs: [satisfiable(5), { game: 'cnf', instance: 'p cnf 1 1\n2 0\n' }],
    });
    expect(bad.status).toBe(400);
    expect(bad.body.field).toMatch(/^jobs\[1\]\.instance/);
    const batch = (await api<BatchResource>('GET', `/v1/batches/${batchId}`)).body;
    expect(batch.size).toBe(4);
    expect(batch.jobIds).toEqual([...grown.jobIds, ...appended.body.jobIds]);
    expect(await jobCount()).toBe(jobs);
    await batchEnd(batchId);
  });

  it('lists batches newest first, a page at a time, and refuses bad paging', async () => {
    const older = await createBatch({ label: 'older', jobs: [satisfiable(1)] });
    const newer = await createBatch({ label: 'newer', jobs: [satisfiable(1)] });
    const list = await api<{ batches: BatchSummary[]; offset: number; limit: number }>('GET', '/v1/batches');
    expect(list.body).toMatchObject({ offset: 0, limit: 50 });
    expect(list.body.batches.map((b) => b.batchId)).toEqual([newer.batchId, older.batchId, grown.batchId]);
    expect(list.body.batches[0]).toMatchObject({ label: 'newer', size: 1 });

    const page = await api<{ batches: BatchSummary[] }>('GET', '/v1/batches?offset=1&limit=1');
    expect(page.body).toMatchObject({ offset: 1, limit: 1 });
    expect(page.body.batches.map((b) => b.batchId)).toEqual([older.batchId]);
    expect((await api<{ batches: BatchSummary[] }>('GET', '/v1/batches?offset=3')).body.batches).toEqual([]);

    for (const [query, field] of [
      ['limit=0', 'query.limit'],
      ['limit=501', 'query.limit'],
      ['offset=-1', 'query.offset'],
      ['limit=ten', 'query.limit'],
      ['page=2', 'query.page'],
    ]) {
      const refused = await api<{ field: string }>('GET', `/v1/batches?${query}`);
      expect({ query, status: refused.status, field: refused.body.field }).toEqual({
        query,
        status: 400,
        field,
      });
    }
    await Promise.all([batchEnd(older.batchId), batchEnd(newer.batchId)]);
  });

  // A finished batch of SAT and UNSAT formulas, read by the next tests.
  let mixed: BatchCreated;
  const mixedJobs = [satisfiable(3), unsatisfiable, satisfiable(4), unsatisfiable, satisfiable(5)];

  it("counts a batch's jobs by status and pages them in submission order, by status too", async () => {
    mixed = await createBatch({ jobs: mixedJobs });
    const batch = await batchEnd(mixed.batchId);
    expect(batch).toMatchObject({ size: 5, done: true, counts: { satisfiable: 3, unsatisfiable: 2 } });
    expect(Object.values(batch.counts).reduce((a, b) => a + b, 0)).toBe(5);
    expect(Date.parse(batch.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(batch.createdAt));

    const path = `/v1/batches/${mixed.batchId}/jobs`;
    type Page = { jobs: JobResource[]; offset: number; limit: number };
    const all = (await api<Page>('GET', path)).body;
    expect(all.jobs.map((j) => j.id)).toEqual(mixed.jobIds);
    // The last job ended when the batch did.
    expect(
      all.jobs
        .map((j) => j.finishedAt)
        .sort()
        .at(-1),
    ).toBe(batch.finishedAt);
    for (const job of all.jobs) {
      const one = (await api<JobResource>('GET', `/v1/jobs/${job.id}`)).body;
      expect(job.summary).toMatch(/^\d+ vars, \d+ clauses$/);
      expect(job.summary).toBe(one.summary);
      expect(job).not.toHaveProperty('render');
    }
    const unsat = (await api<Page>('GET', `${path}?state=unsatisfiable`)).body;
    expect(unsat.jobs.map((j) => j.id)).toEqual([mixed.jobIds[1], mixed.jobIds[3]]);
    const page = (await api<Page>('GET', `${path}?state=satisfiable&offset=1&limit=1`)).body;
    expect(page).toMatchObject({ offset: 1, limit: 1 });
    expect(page.jobs.map((j) => j.id)).toEqual([mixed.jobIds[2]]);
    expect(page.jobs[0]).toMatchObject({ status: 'satisfiable', summary: '4 vars, 4 clauses' });

    expect((await api<{ field: string }>('GET', `${path}?state=done`)).body.field).toBe('query.state');
    expect((await api('GET', '/v1/batches/no-such-batch')).status).toBe(404);
    expect((await api('GET', '/v1/batches/no-such-batch/jobs')).status).toBe(404);
  });

  it('exports a batch as JSON Lines and as RFC 4180 CSV, a line and a row a job in order', async () => {
    const lines = jsonLines(await results(mixed.batchId, 'jsonl'));
    const page = (await api<{ jobs: JobResource[] }>('GET', `/v1/batches/${mixed.batchId}/jobs`)).body.jobs;
    expect(lines).toEqual(page);
    expect(lines.map((j) => j.id)).toEqual(mixed.jobIds);

    // Summaries ("3 vars, 3 clauses") and solutions ({"model":[1,2,3]}) hold commas and quotes.
    const rows = await csvRows(mixed.batchId);
    expect(rows).toEqual(
      lines.map((job) => ({
        id: job.id,
        game: 'cnf',
        summary: job.summary,
        status: job.status,
        horizon: job.horizon === undefined ? '' : String(job.horizon),
        lower: String(job.bounds.lower),
        upper: job.bounds.upper === undefined ? '' : String(job.bounds.upper),
        solution: job.solution ?? '',
        verified: String(job.verified),
        wall_ms: String(job.stats.wallMs),
        created_at: job.createdAt,
        finished_at: job.finishedAt,
        error: '',
      })),
    );
    expect(rows[0]!.solution).toMatchObject({ model: [1, 2, 3] });

    const xml = await api<{ field: string }>('GET', `/v1/batches/${mixed.batchId}/results?format=xml`);
    expect(xml).toMatchObject({ status: 400, body: { field: 'query.format' } });
    expect((await api('GET', '/v1/batches/no-such-batch/results')).status).toBe(404);
    expect((await api('GET', '/v1/batches/no-such-batch/results?format=csv')).status).toBe(404);
  });

  it('cancels every unfinished job of a batch and stops its solvers, leaving finished jobs be', async () => {
    const created = await createBatch({ jobs: [satisfiable(2), slow, slow, slow] });
    const [quickId, ...slowIds] = created.jobIds;
    expect((await progress.subscribe({ batchId: created.batchId })).ok).toBe(true);
    await progress.jobEnd(quickId!);
    // Both slots busy with a slow job; the third slow job waits its turn.
    await waitUntil(() => solversUnder(farm.pid).length === 2, { what: 'two solvers running' });
    const quick = (await api<JobResource>('GET', `/v1/jobs/${quickId}`)).body;
    const running = (await api<BatchResource>('GET', `/v1/batches/${created.batchId}`)).body;
    expect(running).toMatchObject({ done: false, finishedAt: null });
    expect(running.counts).toMatchObject({ satisfiable: 1 });

    const cancelled = await api<BatchSummary>('DELETE', `/v1/batches/${created.batchId}`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      batchId: created.batchId,
      counts: { satisfiable: 1, cancelled: 3 },
      done: true,
    });
    const ends = await progress.allEnded(slowIds);
    expect([...ends.values()].map((e) => e.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
    expect((await api<JobResource>('GET', `/v1/jobs/${quickId}`)).body).toEqual(quick);
    await waitUntil(() => solversUnder(farm.pid).length === 0, { what: 'no solver left running' });

    const batch = (await api<BatchResource>('GET', `/v1/batches/${created.batchId}`)).body;
    expect(batch).toMatchObject({ done: true, counts: { satisfiable: 1, cancelled: 3 } });
    expect(batch.finishedAt).not.toBeNull();
    // Cancelling again changes nothing.
    expect((await api<BatchSummary>('DELETE', `/v1/batches/${created.batchId}`)).body).toEqual(
      cancelled.body,
    );
    expect((await api('DELETE', '/v1/batches/no-such-batch')).status).toBe(404);
  });

  it('sends batch events on the websocket, a few a second at most, the last one done', async () => {
    const created = await createBatch({ jobs: Array.from({ length: 12 }, () => brief) });
    const batch = await batchEnd(created.batchId);
    expect(batch).toMatchObject({ done: true, counts: { optimal: 12 } });
    const events = progress.batches.filter((e) => e.batchId === created.batchId);
    expect(events.filter((e) => e.done)).toHaveLength(1);
    expect(events.at(-1)).toEqual({
      batchId: created.batchId,
      counts: batch.counts,
      done: true,
      at: expect.any(Number) as number,
    });
    // Each job changes status twice (running, optimal): 24 changes, coalesced.
    for (const event of events) {
      const inTheSecond = events.filter((e) => e.at >= event.at && e.at < event.at + 1000);
      expect(inTheSecond.length).toBeLessThanOrEqual(6);
    }
    expect(events.length).toBeLessThan(24);
  });

  it('lists every batch route in the OpenAPI document', async () => {
    const openapi = await api<{ paths: Record<string, Record<string, unknown>> }>('GET', '/docs-json');
    const methods = (path: string): string[] => Object.keys(openapi.body.paths[path] ?? {}).sort();
    expect(methods('/v1/batches')).toEqual(['get', 'post']);
    expect(methods('/v1/batches/{id}')).toEqual(['delete', 'get']);
    expect(methods('/v1/batches/{id}/jobs')).toEqual(['get', 'post']);
    expect(methods('/v1/batches/{id}/results')).toEqual(['get']);
  });
});

describe('the batch API with a store of record (SATFARM_DATABASE_URL)', () => {
  it("answers a finished batch's results from PostgreSQL once Redis has lost them", async () => {
    const body = { key: 'stored-1', label: 'stored', jobs: [satisfiable(3), unsatisfiable, satisfiable(2)] };
    const created = await createBatch(body, recorded);
    const watcher = await ProgressClient.connect(recorded.url);
    try {
      await batchEnd(created.batchId, recorded, watcher);
    } finally {
      watcher.close();
    }
    // The archive writes after the batch's end, and tells no one: only the database shows it.
    const rows = await waitUntil(
      async () => {
        const found = await queryDatabase<{ id: string; status: string; position: number; batch_id: string }>(
          database,
          'SELECT id, status, position, batch_id FROM jobs WHERE batch_id = $1 ORDER BY position',
          [created.batchId],
        );
        return found.length === 3 && found;
      },
      { what: 'the finished jobs in PostgreSQL', everyMs: 100 },
    );
    expect(rows.map((r) => [r.id, r.status, r.position])).toEqual([
      [created.jobIds[0], 'satisfiable', 0],
      [created.jobIds[1], 'unsatisfiable', 1],
      [created.jobIds[2], 'satisfiable', 2],
    ]);
    expect(
      await queryDatabase(database, 'SELECT label, key, size FROM batches WHERE batch_id = $1', [
        created.batchId,
      ]),
    ).toEqual([{ label: 'stored', key: 'stored-1', size: 3 }]);

    // Archived, Redis' copies expire within the hour (archivedKeepSec), not after SATFARM_JOB_TTL_SEC.
    const redis = recordedFarm.redis();
    const keys = new FarmKeys(recordedFarm.prefix);
    const ttls = await waitUntil(
      async () => {
        const found = await Promise.all(created.jobIds.map((id) => redis.ttl(keys.job(id))));
        return found.every((ttl) => ttl > 0 && ttl <= 3600) && found;
      },
      { what: 'archived jobs to expire sooner', everyMs: 100 },
    );
    expect(ttls).toHaveLength(3);

    const read = async () => ({
      jobs: await Promise.all(
        created.jobIds.map(
          async (id) => (await api<JobResource>('GET', `/v1/jobs/${id}`, undefined, recorded)).body,
        ),
      ),
      batch: (await api<BatchResource>('GET', `/v1/batches/${created.batchId}`, undefined, recorded)).body,
      page: (
        await api<{ jobs: JobResource[] }>('GET', `/v1/batches/${created.batchId}/jobs`, undefined, recorded)
      ).body,
      unsat: (
        await api<{ jobs: JobResource[] }>(
          'GET',
          `/v1/batches/${created.batchId}/jobs?state=unsatisfiable`,
          undefined,
          recorded,
        )
      ).body,
      jsonl: jsonLines(await results(created.batchId, 'jsonl', recorded)),
      csv: await csvRows(created.batchId, recorded),
      list: (await api<{ batches: BatchSummary[] }>('GET', '/v1/batches', undefined, recorded)).body,
    });
    const before = await read();
    expect(before.batch).toMatchObject({
      done: true,
      jobIds: created.jobIds,
      counts: { satisfiable: 2, unsatisfiable: 1 },
    });
    expect(before.jobs.map((j) => j.status)).toEqual(['satisfiable', 'unsatisfiable', 'satisfiable']);
    expect(before.jsonl.map((j) => j.id)).toEqual(created.jobIds);
    expect(before.list.batches.map((b) => b.batchId)).toEqual([created.batchId]);

    await deletePrefix(recordedFarm.prefix);
    expect(await read()).toEqual(before);

    // Its key still names it: submitting it again queues nothing, however many times.
    for (let i = 0; i < 2; i++) {
      const again = await api<BatchCreated>('POST', '/v1/batches', body, recorded);
      expect(again.status).toBe(200);
      expect(again.body).toEqual({ ...created, existing: true });
    }
    const closed = await api<{ field: string; size: number }>(
      'POST',
      `/v1/batches/${created.batchId}/jobs`,
      { offset: 3, jobs: [satisfiable(1)] },
      recorded,
    );
    expect(closed).toMatchObject({ status: 409, body: { field: 'offset', size: 3 } });
  });
});
