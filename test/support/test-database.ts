import { randomBytes } from 'node:crypto';

import { Client } from 'pg';

/** The server's maintenance database, where specs create and drop their own. */
const MAINTENANCE_URL =
  process.env.SATFARM_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** The databases this spec file created, dropped by `dropTestDatabases`. */
const created: string[] = [];

/** Connects to `url`, runs `use`, and disconnects. */
async function withClient<T>(url: string, use: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The URL of `MAINTENANCE_URL`'s server with another database. */
export function databaseUrl(name: string): string {
  const url = new URL(MAINTENANCE_URL);
  url.pathname = `/${name}`;
  return url.href;
}

/** A new empty database of the spec's own (see `dropTestDatabases`); its URL. */
export async function createTestDatabase(): Promise<string> {
  const name = `satfarm_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withClient(MAINTENANCE_URL, (client) => client.query(`CREATE DATABASE ${name}`));
  created.push(name);
  return databaseUrl(name);
}

/** Drops every database `createTestDatabase` made, whoever is still connected to it. */
export async function dropTestDatabases(): Promise<void> {
  await withClient(MAINTENANCE_URL, async (client) => {
    for (const name of created.splice(0)) await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });
}

/** The rows of one query on the database at `url`. */
export function queryDatabase<R>(url: string, text: string, values: unknown[] = []): Promise<R[]> {
  return withClient(url, async (client) => (await client.query(text, values)).rows as R[]);
}
