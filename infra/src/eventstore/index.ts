import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { EsdbEventStore } from './esdb.ts';
import type { EventStore } from './port.ts';
import { PostgresEventStore } from './postgres.ts';
import { SqliteEventStore } from './sqlite.ts';

/**
 * EventStoreDB when `EVENTSTORE_URL` is set (it names an engine for the log alone, so it wins over
 * `DATABASE_URL`), else PostgreSQL when `DATABASE_URL` is set, else the embedded SQLite file under `DATA_DIR`.
 */
export function createEventStore(config: { EVENTSTORE_URL?: string | undefined; DATABASE_URL?: string | undefined; DATA_DIR: string }): EventStore {
  if (config.EVENTSTORE_URL) return new EsdbEventStore(config.EVENTSTORE_URL);
  if (config.DATABASE_URL) return new PostgresEventStore(config.DATABASE_URL);
  mkdirSync(config.DATA_DIR, { recursive: true });
  return new SqliteEventStore(join(config.DATA_DIR, 'events.sqlite3'));
}
