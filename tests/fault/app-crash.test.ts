import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { createLogger } from '@scriptorium/infra/log';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { SqliteReadStore } from '@scriptorium/infra/readstore/sqlite';
import { createProjections } from '@scriptorium/projections/index';
import { ProjectionRunner } from '@scriptorium/projections/runner';
import { client, signUp } from '../support/app.ts';
import { startProduct } from '../support/product.ts';

/** Every document of every read model, keyed by collection, in a stable order. */
async function dump(file: string): Promise<Record<string, unknown[]>> {
  const store = new SqliteReadStore(file);
  const result: Record<string, unknown[]> = {};
  for (const projection of createProjections({ timeZone: 'UTC' })) {
    for (const name of projection.collections) result[name] = await store.collection(name).find({}, { sort: { _id: 1 } });
    result[`checkpoint:${projection.name}`] = [await store.getCheckpoint(projection.name)];
  }
  await store.close();
  return result;
}

test('kill -9 during a burst: after restart the read models catch up, running replies end, and a rebuild gives identical read models', async (t) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'scriptorium-crash-'));
  try {
    const first = await startProduct(dataDir);
    const users = await Promise.all(['crash1', 'crash2', 'crash3'].map((name) => signUp(first.url, name)));
    const sessions = await Promise.all(
      users.flatMap((user) => [0, 1, 2].map(async () => ({ user, id: (await user.request('POST', '/backend/conversation/api/v2/research/create_session', { mode: 0 })).body.session_id as string }))),
    );
    const burst = sessions.map(({ user, id }) => user.request('POST', '/backend/api/v2/chat/poe/start', { session_id: id, text: '在崩溃前写一段很长的回答，介绍事件溯源的原理。' }).catch(() => null));
    await new Promise((resolve) => setTimeout(resolve, 150));
    first.child.kill('SIGKILL');
    await Promise.all(burst);
    await first.exited;

    const second = await startProduct(dataDir);
    const names = ['crash1', 'crash2', 'crash3'];
    const tokens = new Map<string, string>();
    for (const [index, name] of names.entries()) {
      const login = await client(second.url).request('POST', '/backend/auth/login', { username: name, password: 'correct horse battery' }, { form: true });
      tokens.set(users[index]!.userId, login.body.access_token);
    }
    const statuses = () =>
      Promise.all(sessions.map(({ user, id }) => client(second.url, tokens.get(user.userId)).request('GET', `/backend/conversation/research/${id}/status`)));
    for (let tries = 0; tries < 300; tries++) {
      if ((await statuses()).every((status) => status.status === 200 && !status.body.processing)) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    for (const status of await statuses()) {
      t.is(status.status, 200);
      t.false(status.body.processing, 'no reply is left running after the restart');
    }
    second.child.kill('SIGTERM');
    await second.exited;

    const live = await dump(join(dataDir, 'read.sqlite3'));
    const events = new SqliteEventStore(join(dataDir, 'events.sqlite3'));
    const rebuiltFile = join(dataDir, 'rebuilt.sqlite3');
    const rebuiltStore = new SqliteReadStore(rebuiltFile);
    await new ProjectionRunner(events, rebuiltStore, createProjections({ timeZone: 'UTC' }), createLogger('silent', 'test')).catchUp();
    await rebuiltStore.close();
    await events.close();
    const rebuilt = await dump(rebuiltFile);
    t.deepEqual(rebuilt, live);
    t.true((live.chats ?? []).length >= sessions.length);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
