import pg from 'pg';
import type { ProgressSignal } from './port.ts';

const CHANNEL = 'scriptorium_progress';
/** Wait before opening the LISTEN connection again after it failed. */
const RELISTEN_MS = 1000;

/** LISTEN/NOTIFY on one channel: one connection listens for the whole process, announcements use a small pool. */
export class PostgresProgressSignal implements ProgressSignal {
  readonly #pool: pg.Pool;
  readonly #connectionString: string;
  readonly #heard = new Set<(position: number) => void>();
  #listener: Promise<pg.Client> | undefined;
  #listening = false;
  #closed = false;

  constructor(connectionString: string) {
    this.#connectionString = connectionString;
    this.#pool = new pg.Pool({ connectionString, max: 2 });
    // An idle client losing its connection emits here; without a listener that would crash the process.
    this.#pool.on('error', () => undefined);
  }

  get listening(): boolean {
    return this.#listening;
  }

  async announce(position: number): Promise<void> {
    await this.#pool.query('SELECT pg_notify($1, $2)', [CHANNEL, String(position)]);
  }

  async listen(heard: (position: number) => void): Promise<void> {
    this.#heard.add(heard);
    await this.#connect();
  }

  #connect(): Promise<pg.Client> {
    this.#listener ??= (async () => {
      const client = new pg.Client({ connectionString: this.#connectionString });
      const lost = () => {
        this.#listening = false;
        this.#listener = undefined;
        client.removeAllListeners('notification');
        void client.end().catch(() => undefined);
        if (!this.#closed) setTimeout(() => void this.#connect().catch(() => undefined), RELISTEN_MS).unref();
      };
      client.on('error', lost);
      client.on('end', lost);
      client.on('notification', (message) => {
        const position = Number(message.payload);
        if (Number.isFinite(position)) for (const heard of this.#heard) heard(position);
      });
      try {
        await client.connect();
        await client.query(`LISTEN ${CHANNEL}`);
      } catch (error) {
        client.removeAllListeners();
        await client.end().catch(() => undefined);
        throw error;
      }
      this.#listening = true;
      return client;
    })().catch((error: unknown) => {
      this.#listener = undefined;
      throw error;
    });
    return this.#listener;
  }

  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#listening = false;
    const listener = this.#listener;
    this.#listener = undefined;
    const client = await listener?.catch(() => undefined);
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
    await this.#pool.end();
  }
}
