import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { EventStore } from './port.ts';
import { SqliteEventStore } from './sqlite.ts';

/**
 * EventStoreDB when `EVENTSTORE_URL` is set (it names an engine for the log alone, so it wins over
 * `DATABASE_URL`), else PostgreSQL when `DATABASE_URL` is set, else the embedded SQLite file under `DATA_DIR`.
 * Only the chosen adapter's module is loaded: the client libraries of the others are hundreds of
 * modules each, which every process (and every test file) would otherwise load for nothing.
 */
export async function createEventStore(config: { EVENTSTORE_URL?: string | undefined; DATABASE_URL?: string | undefined; DATA_DIR: string }): Promise<EventStore> {
  if (config.EVENTSTORE_URL) return new (await import('./esdb.ts')).EsdbEventStore(config.EVENTSTORE_URL);
  if (config.DATABASE_URL) return new (await import('./postgres.ts')).PostgresEventStore(config.DATABASE_URL);
  mkdirSync(config.DATA_DIR, { recursive: true });
  return new SqliteEventStore(join(config.DATA_DIR, 'events.sqlite3'));
}
