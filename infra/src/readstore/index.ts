import { join } from 'node:path';
import { MongoReadStore } from './mongo.ts';
import type { ReadStore } from './port.ts';
import { SqliteReadStore } from './sqlite.ts';

export interface ReadStoreConfig {
  MONGO_URL?: string | undefined;
  MONGO_DB?: string | undefined;
  DATA_DIR: string;
}

/** MongoDB when MONGO_URL is set, else the embedded SQLite file in DATA_DIR. */
export function createReadStore(config: ReadStoreConfig): ReadStore {
  if (config.MONGO_URL) return new MongoReadStore(config.MONGO_URL, config.MONGO_DB ?? 'scriptorium');
  return new SqliteReadStore(join(config.DATA_DIR, 'read.sqlite3'));
}
