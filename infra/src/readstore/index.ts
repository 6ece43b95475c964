import { join } from 'node:path';
import type { ReadStore } from './port.ts';
import { SqliteReadStore } from './sqlite.ts';

export interface ReadStoreConfig {
  MONGO_URL?: string | undefined;
  MONGO_DB?: string | undefined;
  MONGO_ALLOW_STANDALONE?: boolean | undefined;
  DATABASE_URL?: string | undefined;
  DATA_DIR: string;
}

/**
 * MongoDB when MONGO_URL is set (it names an engine for the read models alone, so it wins over
 * DATABASE_URL), else PostgreSQL when DATABASE_URL is set, else the embedded SQLite file in DATA_DIR.
 * Only the chosen adapter's module is loaded: the client libraries of the others are hundreds of
 * modules each, which every process (and every test file) would otherwise load for nothing.
 */
export async function createReadStore(config: ReadStoreConfig, { checkServer = false }: { checkServer?: boolean } = {}): Promise<ReadStore> {
  if (config.MONGO_URL) {
    const store = new (await import('./mongo.ts')).MongoReadStore(config.MONGO_URL, config.MONGO_DB ?? 'scriptorium', { allowStandalone: config.MONGO_ALLOW_STANDALONE ?? false });
    // At a process's start a server too old, or a standalone one, is refused with the reason, not at the first write.
    if (checkServer) await store.supportsTransactions();
    return store;
  }
  if (config.DATABASE_URL) return new (await import('./postgres.ts')).PostgresReadStore(config.DATABASE_URL);
  return new SqliteReadStore(join(config.DATA_DIR, 'read.sqlite3'));
}
