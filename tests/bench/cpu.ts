/**
 * CPU time by process during a phase of a bench, from /proc (Linux): each role's process, the bench's
 * own, and the PostgreSQL backends serving its scratch database.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';

/** Linux's clock ticks per second, in which /proc reports a process's CPU time. */
const TICKS_PER_SECOND = 100;

/** User + system CPU time of a process so far, in ms; 0 once it is gone or where /proc is not there. */
export function cpuMs(pid: number): number {
  try {
    // The fields after the command's closing parenthesis: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

/**
 * Where a phase's CPU went: each role's process, this bench's process (the clients), and the
 * PostgreSQL backends serving the scratch database (their pids read before and after: a connection
 * opened and closed within the phase is missed, so PostgreSQL's share is a floor). The server's
 * shared processes (WAL writer, checkpointer) and Redis serve other engineers too and are left out.
 */
export class CpuAccount {
  #before = new Map<string, number>();

  constructor(
    private readonly roles: Record<string, number>,
    private readonly database: { url: string; name: string },
  ) {}

  async #backends(): Promise<number[]> {
    const client = new pg.Client({ connectionString: this.database.url });
    await client.connect();
    try {
      const { rows } = await client.query<{ pid: number }>('SELECT pid FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [this.database.name]);
      return rows.map((row) => row.pid);
    } finally {
      await client.end();
    }
  }

  async #sample(): Promise<Map<string, number>> {
    const sample = new Map(Object.entries(this.roles).map(([role, pid]) => [role, cpuMs(pid)]));
    sample.set('bench', cpuMs(process.pid));
    for (const pid of await this.#backends()) sample.set(`postgres ${pid}`, cpuMs(pid));
    return sample;
  }

  async start(): Promise<void> {
    this.#before = await this.#sample();
  }

  /** The CPU spent since `start`, by role, PostgreSQL's backends summed. */
  async spent(): Promise<Record<string, number>> {
    const after = await this.#sample();
    const spent: Record<string, number> = {};
    for (const [key, ms] of after) {
      const role = key.startsWith('postgres ') ? 'postgres' : key;
      spent[role] = (spent[role] ?? 0) + Math.max(0, ms - (this.#before.get(key) ?? 0));
    }
    return spent;
  }
}
