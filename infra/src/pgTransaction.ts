import type pg from 'pg';

/**
 * Runs `work` in one transaction on a client of its own: committed when it resolves, rolled back
 * when it throws. A failed rollback is swallowed, since the connection it failed on is released
 * anyway and the error worth reporting is the one `work` threw.
 */
export async function inTransaction<R>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
