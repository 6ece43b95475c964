import type { ProgressSignal } from './port.ts';

/**
 * LISTEN/NOTIFY when DATABASE_URL is set; otherwise none, and an api process waiting on a projector
 * elsewhere polls the checkpoints.
 */
export async function createProgressSignal(config: { DATABASE_URL?: string | undefined }): Promise<ProgressSignal | undefined> {
  return config.DATABASE_URL ? new (await import('./postgres.ts')).PostgresProgressSignal(config.DATABASE_URL) : undefined;
}
