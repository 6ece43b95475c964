import pg from 'pg';
import { PgListener } from '../pgListener.ts';
import type { ProgressSignal } from './port.ts';

const CHANNEL = 'scriptorium_progress';

/** LISTEN/NOTIFY on one channel: one connection listens for the whole process, announcements use a small pool. */
export class PostgresProgressSignal implements ProgressSignal {
  readonly #pool: pg.Pool;
  readonly #heard = new Set<(position: number) => void>();
  readonly #listener: PgListener;
  #closed = false;

  constructor(connectionString: string) {
    this.#pool = new pg.Pool({ connectionString, max: 2 });
    // An idle client losing its connection emits here; without a listener that would crash the process.
    this.#pool.on('error', () => undefined);
    this.#listener = new PgListener(connectionString, CHANNEL, (payload) => {
      const position = Number(payload);
      if (Number.isFinite(position)) for (const heard of this.#heard) heard(position);
    });
  }

  get listening(): boolean {
    return this.#listener.listening;
  }

  async announce(position: number): Promise<void> {
    await this.#pool.query('SELECT pg_notify($1, $2)', [CHANNEL, String(position)]);
  }

  async listen(heard: (position: number) => void): Promise<void> {
    this.#heard.add(heard);
    await this.#listener.connect();
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    await this.#listener.close();
    await this.#pool.end();
  }
}
