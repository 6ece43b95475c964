import { mkdtempSync, rmSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import test from 'ava';
import { createLogger } from '@scriptorium/infra/log';
import { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { SecretBox } from '@scriptorium/infra/secrets/box';
import { CONNECTIONS_STREAM } from './connections.ts';
import { connectionsDecider } from './decide.ts';
import { ENVIRONMENT_ENDPOINT, LiveConnections, type ConnectionsEnvironment } from './live.ts';

const ENV: ConnectionsEnvironment = { LLM_BASE_URL: 'http://models.internal/v1', LLM_MODEL: 'gpt-4o', LLM_API_KEY: 'sk-env-SECRET-key', MAIL_FROM: 'a@b.c', ASR_MODEL: 'whisper-1' };

/** Two roles as two processes would have them: their own connection to one log, their own connections. */
async function twoRoles(t: { teardown(fn: () => unknown): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'connections-live-'));
  const key = randomBytes(32);
  const roles = [0, 1].map(() => {
    const events = new SqliteEventStore(join(dir, 'events.sqlite3'));
    const commands = new CommandHandler(events);
    return { events, commands, live: new LiveConnections({ events, commands, box: new SecretBox(key), log: createLogger('silent', 'test'), clock: () => new Date('2026-03-01T08:00:00Z'), mailFrom: 'a@b.c' }) };
  });
  t.teardown(async () => {
    for (const role of roles) {
      await role.live.stop();
      await role.events.close();
    }
    rmSync(dir, { recursive: true, force: true });
  });
  return roles as [(typeof roles)[number], (typeof roles)[number]];
}

async function until(condition: () => boolean): Promise<boolean> {
  for (let tries = 0; tries < 400 && !condition(); tries++) await delay(25);
  return condition();
}

test('roles starting together seed the environment once, sealed; another role follows a change without a restart', async (t) => {
  const [api, worker] = await twoRoles(t);
  await Promise.all([api.live.start(ENV), worker.live.start({ ...ENV, LLM_MODEL: 'ignored-once-seeded' })]);
  const seeded = await api.events.readStream(CONNECTIONS_STREAM);
  t.deepEqual(seeded.map((event) => event.type), ['ModelEndpointConfigured']);
  t.false(JSON.stringify(seeded).includes('SECRET'), 'the key is sealed in the log');
  t.is(worker.live.models.for('writing').name, 'openai-compatible:gpt-4o', 'a role without its own endpoint gets the default');
  t.is(worker.live.model.profile.maxOutputTokens, 16_384);

  const admin = { by: 'admin' };
  const now = { now: new Date('2026-03-01T09:00:00Z') };
  await api.commands.handle(connectionsDecider, CONNECTIONS_STREAM, {
    type: 'ConfigureModelEndpoint',
    data: { id: 'writer', baseUrl: 'http://vllm:8000/v1', model: 'qwen3-32b', profile: { maxOutputTokens: 4096 }, roles: ['writing'], encryptedKey: null, ...admin },
    metadata: now,
  });
  await api.commands.handle(connectionsDecider, CONNECTIONS_STREAM, {
    type: 'ChangeModelEndpoint',
    data: { id: ENVIRONMENT_ENDPOINT, baseUrl: 'http://models.internal/v1', model: 'deepseek-chat', profile: {}, roles: ['default'], ...admin },
    metadata: now,
  });
  t.true(await until(() => worker.live.model.name === 'openai-compatible:deepseek-chat'), 'the worker follows the log');
  t.is(worker.live.models.for('writing').name, 'openai-compatible:qwen3-32b');
  t.is(worker.live.models.for('writing').profile.maxOutputTokens, 4096);
  t.is(worker.live.models.for('planning').name, 'openai-compatible:deepseek-chat');

  await api.commands.handle(connectionsDecider, CONNECTIONS_STREAM, { type: 'RemoveModelEndpoint', data: { id: ENVIRONMENT_ENDPOINT, ...admin }, metadata: now });
  t.true(await until(() => worker.live.model.offline), 'with no default endpoint the offline engine answers');
  t.is(worker.live.models.for('writing').name, 'openai-compatible:qwen3-32b');
});

test('a key sealed with another CONNECTIONS_KEY reads as unreadable, never as text', async (t) => {
  const [api] = await twoRoles(t);
  await api.live.start({ MAIL_FROM: 'a@b.c', ASR_MODEL: 'whisper-1' });
  const foreign = new SecretBox(randomBytes(32)).seal('sk-foreign-key-123456');
  t.deepEqual(api.live.hint(foreign), { set: true, readable: false, last4: null });
  t.deepEqual(api.live.hint(api.live.seal('sk-own-key-123456')), { set: true, readable: true, last4: '3456' });
  t.deepEqual(api.live.hint(api.live.seal('short')), { set: true, readable: true, last4: null });
  t.deepEqual(api.live.hint(null), { set: false, readable: false, last4: null });
  t.is(api.live.open(foreign), undefined);
});

test('the environment is checked as before: a model or key without a URL, or a URL without a model, is refused', async (t) => {
  const [api] = await twoRoles(t);
  await t.throwsAsync(api.live.start({ MAIL_FROM: 'a@b.c', ASR_MODEL: 'whisper-1', LLM_MODEL: 'gpt-4o' }), { message: /LLM_BASE_URL/ });
  await t.throwsAsync(api.live.start({ MAIL_FROM: 'a@b.c', ASR_MODEL: 'whisper-1', LLM_BASE_URL: 'http://x/v1' }), { message: /LLM_MODEL/ });
});

test('LLM_PROFILE shapes the default model and LLM_ROLE_MODELS seeds a model per role on the same server', async (t) => {
  const [api] = await twoRoles(t);
  await api.live.start({ ...ENV, LLM_MODEL: 'qwen3:14b', LLM_PROFILE: { contextWindow: 16_384 }, LLM_ROLE_MODELS: { writing: 'qwen3:32b' } });
  t.is(api.live.model.name, 'openai-compatible:qwen3:14b');
  t.is(api.live.model.profile.contextWindow, 16_384);
  t.is(api.live.models.for('writing').name, 'openai-compatible:qwen3:32b');
  t.is(api.live.models.for('writing').profile.contextWindow, 32_768, 'a role model takes its family profile');
  t.is(api.live.models.for('planning').name, 'openai-compatible:qwen3:14b');
  await t.throwsAsync(api.live.start({ MAIL_FROM: 'a@b.c', ASR_MODEL: 'whisper-1', LLM_ROLE_MODELS: { writing: 'x' } }), { message: /LLM_BASE_URL/ });
});
