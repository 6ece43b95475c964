import pg from 'pg';

/** Wait before opening the LISTEN connection again after it failed. */
const RELISTEN_MS = 1000;

/**
 * One connection LISTENing on one channel, opened on demand. A lost connection is opened again after a
 * second while `wanted()` says so; until then notifications are missed, and `listening` is false.
 */
export class PgListener {
  #client: Promise<pg.Client> | undefined;
  #listening = false;
  #closed = false;

  constructor(
    private readonly connectionString: string,
    private readonly channel: string,
    private readonly heard: (payload: string) => void,
    private readonly wanted: () => boolean = () => true,
  ) {}

  get listening(): boolean {
    return this.#listening;
  }

  /** Resolves once listening; the same connection serves every caller. */
  async connect(): Promise<void> {
    this.#client ??= this.#open().catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    await this.#client;
  }

  async #open(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.connectionString });
    const lost = () => {
      this.#listening = false;
      this.#client = undefined;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (!this.#closed && this.wanted()) setTimeout(() => void this.connect().catch(() => undefined), RELISTEN_MS).unref();
    };
    client.on('error', lost);
    client.on('end', lost);
    client.on('notification', (message) => this.heard(message.payload ?? ''));
    try {
      await client.connect();
      await client.query(`LISTEN ${this.channel}`);
    } catch (error) {
      client.removeAllListeners();
      await client.end().catch(() => undefined);
      throw error;
    }
    this.#listening = true;
    return client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#listening = false;
    const opening = this.#client;
    this.#client = undefined;
    const client = await opening?.catch(() => undefined);
    if (client) {
      client.removeAllListeners();
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
