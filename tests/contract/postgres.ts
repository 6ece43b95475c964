import { randomUUID } from 'node:crypto';
import pg from 'pg';

export const postgresUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

/** True when a PostgreSQL answers at `url`; gives up after a short timeout instead of retrying. */
export async function postgresAnswers(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1000 });
  // A failed probe is an answer, not an error to report.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => {});
  }
}

export interface ScratchDatabase {
  url: string;
  name: string;
  drop(): Promise<void>;
}

/**
 * A database of its own, named at random: other worktrees and test files run against the same server
 * at the same time, and dropping the database is the whole cleanup.
 */
export async function createScratchDatabase(serverUrl: string = postgresUrl, label = 'test'): Promise<ScratchDatabase> {
  const name = `scriptorium_${label}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
  await admin(serverUrl, `CREATE DATABASE ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => admin(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: serverUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
