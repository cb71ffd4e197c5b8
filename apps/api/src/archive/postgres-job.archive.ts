import { fileURLToPath } from 'node:url';

import { runner } from 'node-pg-migrate';
import { Pool, type PoolClient, type QueryResultRow } from 'pg';

import type { PortfolioRecord } from '@satfarm/engine';
import type { JobResource, JobStatus } from '@satfarm/queue';

import type {
  ArchivedBatch,
  ArchivedBatchSummary,
  ArchivedJob,
  JobArchive,
} from '../coordinator/job-archive.js';

/** How a `PostgresJobArchive` connects and reads. */
export interface PostgresJobArchiveOptions {
  /** `postgres://` or `postgresql://` URL (`SATFARM_DATABASE_URL`). */
  url: string;
  /** Connections at most. */
  maxConnections?: number;
  /** Jobs read a query by `batchResults`. */
  pageSize?: number;
  /** How long a connection attempt may take before it fails. */
  connectTimeoutMs?: number;
  /** Where errors of idle connections go (a database restarted under the pool). */
  onError?: (message: string) => void;
}

/**
 * The database is unreachable or refuses the connection: the message names its host and
 * database as `SATFARM_DATABASE_URL` gives them, never the password.
 */
export class ArchiveConnectionError extends Error {
  constructor(target: string, reason: string, options?: ErrorOptions) {
    super(`SATFARM_DATABASE_URL: cannot use the database ${target}: ${reason}`, options);
    this.name = 'ArchiveConnectionError';
  }
}

const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATIONS_TABLE = 'satfarm_migrations';
/** Rows a statement writes or deletes at most, so no statement carries a whole large batch. */
const WRITE_CHUNK = 500;
const PURGE_CHUNK = 5000;
/** The drawings, which the batch routes leave out (docs/batches.md, "HTTP"). */
const WITHOUT_DRAWINGS = `resource - 'render' - 'secondRender'`;

/** Per-status counts, archived jobs and their last end, of the batch `b`. */
const SUMMARY_COLUMNS = `b.batch_id, b.created_at, b.label, b.key, b.size,
  coalesce(c.counts, '{}'::jsonb) AS counts, coalesce(c.archived, 0)::int AS archived, c.last_finished`;
const SUMMARY_JOIN = `LEFT JOIN LATERAL (
    SELECT jsonb_object_agg(s.status, s.n) AS counts, sum(s.n) AS archived, max(s.last) AS last_finished
    FROM (
      SELECT j.status, count(*)::int AS n, max(j.finished_at) AS last
      FROM jobs j WHERE j.batch_id = b.batch_id GROUP BY j.status
    ) s
  ) c ON true`;

interface BatchRow {
  batch_id: string;
  created_at: Date;
  label: string | null;
  key: string | null;
  size: number;
}

interface SummaryRow extends BatchRow {
  counts: Partial<Record<JobStatus, number>>;
  archived: number;
  last_finished: Date | null;
}

/** System error codes of a server that cannot be reached. */
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ECONNRESET',
]);

/**
 * The store of record in PostgreSQL (docs/batches.md, "Store of record"): a `batches` row per
 * batch and a `jobs` row per finished job holding its final resource as `jsonb`, with the
 * columns reads filter and sort by beside it. The schema comes from node-pg-migrate migrations
 * (`./migrations`), run under its advisory lock so replicas starting together are safe.
 */
export class PostgresJobArchive implements JobArchive {
  private readonly pool: Pool;
  private readonly target: string;
  private readonly pageSize: number;

  constructor(options: PostgresJobArchiveOptions) {
    this.target = describeTarget(options.url);
    this.pageSize = options.pageSize ?? 500;
    this.pool = new Pool({
      connectionString: options.url,
      max: options.maxConnections ?? 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 10_000,
      application_name: 'satfarm',
    });
    // An idle connection's error (the server restarted) would otherwise end the process.
    this.pool.on('error', (err) => options.onError?.(this.failure(err).message));
  }

  async migrate(): Promise<void> {
    await this.withClient((client) =>
      runner({
        dbClient: client,
        dir: MIGRATIONS_DIR,
        // The build writes source maps beside the compiled migrations.
        ignorePattern: '\\..*|.*\\.map',
        migrationsTable: MIGRATIONS_TABLE,
        direction: 'up',
        // A second replica waits for the first one's migrations, then finds nothing to do.
        advisoryLockMode: 'wait',
        log: () => undefined,
      }),
    );
  }

  async saveBatch(batch: ArchivedBatch): Promise<void> {
    await this.query(
      `INSERT INTO batches (batch_id, created_at, label, key, size) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (batch_id) DO UPDATE SET
         size = greatest(batches.size, excluded.size),
         label = coalesce(excluded.label, batches.label),
         key = coalesce(batches.key, excluded.key)`,
      [batch.batchId, new Date(batch.createdAt), batch.label ?? null, batch.key ?? null, batch.size],
    );
  }

  async saveJobs(jobs: ArchivedJob[]): Promise<void> {
    // One statement may not update a row twice: the last write of an id wins.
    const latest = [...new Map(jobs.map((job) => [job.resource.id, job])).values()];
    for (let start = 0; start < latest.length; start += WRITE_CHUNK) {
      const chunk = latest.slice(start, start + WRITE_CHUNK);
      await this.query(
        `INSERT INTO jobs (id, batch_id, position, game, status, summary, created_at, finished_at, resource)
         SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[],
                              $7::timestamptz[], $8::timestamptz[], $9::jsonb[])
         ON CONFLICT (id) DO UPDATE SET
           batch_id = excluded.batch_id, position = excluded.position, game = excluded.game,
           status = excluded.status, summary = excluded.summary, created_at = excluded.created_at,
           finished_at = excluded.finished_at, resource = excluded.resource`,
        [
          chunk.map((j) => j.resource.id),
          chunk.map((j) => j.resource.batchId ?? null),
          chunk.map((j) => j.position ?? null),
          chunk.map((j) => j.resource.game),
          chunk.map((j) => j.resource.status),
          chunk.map((j) => j.resource.summary ?? null),
          chunk.map((j) => j.resource.createdAt),
          // A job is archived when it ends; one without an end time ended now.
          chunk.map((j) => j.resource.finishedAt ?? new Date().toISOString()),
          chunk.map((j) => JSON.stringify(j.resource)),
        ],
      );
    }
  }

  async job(jobId: string): Promise<JobResource | undefined> {
    const rows = await this.query<{ resource: JobResource }>('SELECT resource FROM jobs WHERE id = $1', [
      jobId,
    ]);
    return rows[0]?.resource;
  }

  async jobs(jobIds: string[]): Promise<Map<string, JobResource>> {
    if (jobIds.length === 0) return new Map();
    const rows = await this.query<{ id: string; resource: JobResource }>(
      'SELECT id, resource FROM jobs WHERE id = ANY($1::text[])',
      [jobIds],
    );
    return new Map(rows.map((row) => [row.id, row.resource]));
  }

  async batch(batchId: string): Promise<ArchivedBatchSummary | undefined> {
    const rows = await this.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS} FROM batches b ${SUMMARY_JOIN} WHERE b.batch_id = $1`,
      [batchId],
    );
    return rows[0] && toSummary(rows[0]);
  }

  async batchByKey(key: string): Promise<ArchivedBatch | undefined> {
    const rows = await this.query<BatchRow>(
      'SELECT batch_id, created_at, label, key, size FROM batches WHERE key = $1',
      [key],
    );
    return rows[0] && toBatch(rows[0]);
  }

  /** Newest first; the page is chosen before the counts are taken, so only its batches are counted. */
  async batches(offset: number, limit: number): Promise<ArchivedBatchSummary[]> {
    const rows = await this.query<SummaryRow>(
      `SELECT ${SUMMARY_COLUMNS}
       FROM (SELECT * FROM batches ORDER BY created_at DESC, batch_id DESC OFFSET $1 LIMIT $2) b
       ${SUMMARY_JOIN}
       ORDER BY b.created_at DESC, b.batch_id DESC`,
      [offset, limit],
    );
    return rows.map(toSummary);
  }

  /** Without drawings, as `GET /v1/batches/:id/jobs` answers them. */
  async batchJobs(
    batchId: string,
    page: { status?: JobStatus; offset: number; limit: number },
  ): Promise<JobResource[]> {
    const rows = await this.query<{ resource: JobResource }>(
      `SELECT ${WITHOUT_DRAWINGS} AS resource FROM jobs
       WHERE batch_id = $1 AND ($2::text IS NULL OR status = $2)
       ORDER BY position, id OFFSET $3 LIMIT $4`,
      [batchId, page.status ?? null, page.offset, page.limit],
    );
    return rows.map((row) => row.resource);
  }

  /**
   * Without drawings, as `GET /v1/batches/:id/results` streams them: a page of `pageSize` jobs a
   * query, each page starting after the last position read (keyset), so a batch of any size takes
   * one page of memory and a job archived behind the reader is still read.
   */
  async *batchResults(batchId: string): AsyncIterable<JobResource> {
    let after = { position: -1, id: '' };
    for (;;) {
      const rows = await this.query<{ position: number; id: string; resource: JobResource }>(
        `SELECT position, id, ${WITHOUT_DRAWINGS} AS resource FROM jobs
         WHERE batch_id = $1 AND (position, id) > ($2, $3)
         ORDER BY position, id LIMIT $4`,
        [batchId, after.position, after.id, this.pageSize],
      );
      for (const row of rows) yield row.resource;
      const last = rows.at(-1);
      if (last === undefined || rows.length < this.pageSize) return;
      after = { position: last.position, id: last.id };
    }
  }

  /**
   * Deletes the jobs that ended before `before`, a chunk a statement so a first purge of a large
   * store holds no long lock, then the batches created before it that have no job left.
   */
  async purgeFinishedBefore(before: number): Promise<number> {
    const cutoff = new Date(before);
    let purged = 0;
    for (;;) {
      const rows = await this.query<{ n: number }>(
        `WITH gone AS (
           DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE finished_at < $1 LIMIT $2) RETURNING 1
         ) SELECT count(*)::int AS n FROM gone`,
        [cutoff, PURGE_CHUNK],
      );
      const n = rows[0]?.n ?? 0;
      purged += n;
      if (n < PURGE_CHUNK) break;
    }
    await this.query(
      `DELETE FROM batches b
       WHERE b.created_at < $1 AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.batch_id = b.batch_id)`,
      [cutoff],
    );
    return purged;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  /** The portfolio's record in table `portfolio_tallies`, counted up in place by each race. */
  portfolioRecord(): PortfolioRecord {
    return {
      tallies: async (game, expected) => {
        const rows = await this.query<{ config: string; runs: string; wins: string; win_ms: string }>(
          'SELECT config, runs, wins, win_ms FROM portfolio_tallies WHERE game = $1 AND expected = $2',
          [game, expected],
        );
        return new Map(
          rows.map((r) => [
            r.config,
            { runs: Number(r.runs), wins: Number(r.wins), winMs: Number(r.win_ms) },
          ]),
        );
      },
      add: async (game, expected, race) => {
        if (race.length === 0) return;
        // One statement for the race: the counters of concurrent races add up, none is lost. Rows
        // are taken in one order (by configuration), so two races never deadlock on each other's.
        race = [...race].sort((a, b) => (a.config < b.config ? -1 : a.config > b.config ? 1 : 0));
        await this.query(
          `INSERT INTO portfolio_tallies (game, expected, config, runs, wins, win_ms)
           SELECT $1, $2, r.config, 1, r.won::int, CASE WHEN r.won THEN r.ms ELSE 0 END
           FROM unnest($3::text[], $4::boolean[], $5::bigint[]) AS r(config, won, ms)
           ON CONFLICT (game, expected, config) DO UPDATE SET
             runs = portfolio_tallies.runs + 1,
             wins = portfolio_tallies.wins + EXCLUDED.wins,
             win_ms = portfolio_tallies.win_ms + EXCLUDED.win_ms`,
          [
            game,
            expected,
            race.map((e) => e.config),
            race.map((e) => e.won),
            race.map((e) => Math.round(e.ms)),
          ],
        );
      },
    };
  }

  private async query<R extends QueryResultRow>(text: string, values: unknown[]): Promise<R[]> {
    return this.withClient(async (client) => (await client.query<R>(text, values)).rows);
  }

  private async withClient<T>(use: (client: PoolClient) => Promise<T>): Promise<T> {
    let client: PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw this.failure(err);
    }
    try {
      return await use(client);
    } catch (err) {
      throw isConnectionFailure(err) ? this.failure(err) : err;
    } finally {
      client.release();
    }
  }

  private failure(err: unknown): ArchiveConnectionError {
    const reason = err instanceof Error ? err.message || errorCode(err) || err.name : String(err);
    return new ArchiveConnectionError(this.target, reason, { cause: err });
  }
}

/** `host:port/database` of a database URL: what an operator needs to find it, no credentials. */
function describeTarget(url: string): string {
  try {
    const parsed = new URL(url);
    const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(the default)';
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}/${database}`;
  } catch {
    return '(an unreadable URL)';
  }
}

function errorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * A lost or refused connection: a system error reaching the server, or a server error of class
 * 08 (connection), 28 (authorization), 3D000 (no such database) or 57P0x (shutting down).
 */
function isConnectionFailure(err: unknown): boolean {
  const code = errorCode(err);
  if (code !== undefined) return UNREACHABLE.has(code) || /^(08|28|3D000|57P0)/.test(code);
  return (
    err instanceof Error && /Connection terminated|timeout exceeded when trying to connect/i.test(err.message)
  );
}

function toBatch(row: BatchRow): ArchivedBatch {
  return {
    batchId: row.batch_id,
    createdAt: row.created_at.getTime(),
    ...(row.label === null ? {} : { label: row.label }),
    ...(row.key === null ? {} : { key: row.key }),
    size: row.size,
  };
}

function toSummary(row: SummaryRow): ArchivedBatchSummary {
  const done = row.last_finished !== null && row.archived >= row.size;
  return {
    ...toBatch(row),
    counts: row.counts,
    ...(done ? { finishedAt: row.last_finished!.getTime() } : {}),
  };
}
