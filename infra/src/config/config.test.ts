import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { ConfigError, loadConfig, parseConfig } from './config.ts';

test('defaults make a working embedded configuration', (t) => {
  const config = parseConfig({});
  t.is(config.PORT, 8080);
  t.is(config.DATA_DIR, './data');
  t.is(config.EVENTSTORE_URL, undefined);
  t.is(config.ROLE, 'all');
});

test('DATABASE_URL takes postgres:// and postgresql:// URLs', (t) => {
  t.is(parseConfig({ DATABASE_URL: 'postgres://u@db:5432/app' }).DATABASE_URL, 'postgres://u@db:5432/app');
  t.is(parseConfig({ DATABASE_URL: 'postgresql://db/app' }).DATABASE_URL, 'postgresql://db/app');
});

test('empty strings count as unset', (t) => {
  t.is(parseConfig({ REDIS_URL: '', LLM_BASE_URL: '' }).REDIS_URL, undefined);
});

for (const [variable, value] of [
  ['PORT', 'eighty'],
  ['PORT', '70000'],
  ['REDIS_URL', 'http://localhost:6379'],
  ['MONGO_URL', 'not a url'],
  ['EVENTSTORE_URL', 'postgres://x'],
  ['DATABASE_URL', 'mysql://db/x'],
  ['QUEUE_PREFIX', 'a:b'],
  ['JWT_SECRET', 'short'],
  ['TIME_ZONE', 'Mars/Olympus'],
  ['LOG_LEVEL', 'loud'],
  ['INVITE_CODE_REQUIRED', 'yes'],
  ['EMAIL_CODE_RESEND_SECONDS', '0'],
  ['SMTP_URL', 'http://mail.example.com'],
  ['PASSWORD_HASH_MEMORY_KIB', '4096'],
  ['PASSWORD_HASH_PASSES', '1'],
  ['FETCH_ALLOW_HOSTS', 'wiki.corp, http://intranet'],
  ['FETCH_ALLOW_HOSTS', '10.0.0.0/40'],
] as const) {
  test(`a bad ${variable} (${value}) is refused naming the variable`, (t) => {
    const error = t.throws(() => parseConfig({ [variable]: value }), { instanceOf: ConfigError });
    t.is(error?.variable, variable);
    t.true(error?.message.startsWith(`configuration error: ${variable} `));
  });
}

test('FETCH_ALLOW_HOSTS is empty by default and takes hosts, host:port and networks, comma- or space-separated', (t) => {
  t.deepEqual(parseConfig({}).FETCH_ALLOW_HOSTS, []);
  t.deepEqual(parseConfig({ FETCH_ALLOW_HOSTS: 'wiki.corp, 127.0.0.1:8080 10.1.0.0/16,[::1]:9000' }).FETCH_ALLOW_HOSTS, ['wiki.corp', '127.0.0.1:8080', '10.1.0.0/16', '[::1]:9000']);
});

test('the research bounds default to 4 model calls, 6 fetches, 2 rounds per step and 60,000 tokens before follow-ups stop; 0 concurrency is refused', (t) => {
  t.like(parseConfig({}), { RESEARCH_MODEL_CONCURRENCY: 4, RESEARCH_FETCH_CONCURRENCY: 6, RESEARCH_WORKER_MODEL_CONCURRENCY: 8, RESEARCH_WORKER_FETCH_CONCURRENCY: 12, RESEARCH_MAX_ROUNDS: 2, RESEARCH_FOLLOW_UP_TOKENS: 60_000, PLAN_COUNTDOWN_SECONDS: 8 });
  t.like(parseConfig({ RESEARCH_MODEL_CONCURRENCY: '2', RESEARCH_MAX_ROUNDS: '3', RESEARCH_WORKER_MODEL_CONCURRENCY: '3' }), { RESEARCH_MODEL_CONCURRENCY: 2, RESEARCH_MAX_ROUNDS: 3, RESEARCH_WORKER_MODEL_CONCURRENCY: 3 });
  t.like(parseConfig({}), { EMBEDDING_BASE_URL: undefined, EMBEDDING_MODEL: 'text-embedding-3-small' });
  t.like(parseConfig({ EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1', EMBEDDING_MODEL: 'bge-m3' }), { EMBEDDING_BASE_URL: 'http://127.0.0.1:11434/v1', EMBEDDING_MODEL: 'bge-m3' });
  t.throws(() => parseConfig({ EMBEDDING_BASE_URL: 'ftp://x' }), { instanceOf: ConfigError });
  const error = t.throws(() => parseConfig({ RESEARCH_MODEL_CONCURRENCY: '0' }), { instanceOf: ConfigError });
  t.regex(error!.message, /RESEARCH_MODEL_CONCURRENCY/);
});

test('account switches read true and false, and default to optional', (t) => {
  t.false(parseConfig({}).INVITE_CODE_REQUIRED);
  t.true(parseConfig({ INVITE_CODE_REQUIRED: 'true', EMAIL_VERIFICATION_REQUIRED: '1' }).EMAIL_VERIFICATION_REQUIRED);
  t.like(parseConfig({}), { EMAIL_CODE_RESEND_SECONDS: 120, EMAIL_CODE_MAX_ATTEMPTS: 5, LOGIN_MAX_FAILURES: 5, BUDGET_HOLD_TOKENS: 8000 });
});

test('password hashing costs RFC 9106 (64 MiB, three passes) unless configured, and never less than the OWASP floor', (t) => {
  t.like(parseConfig({}), { PASSWORD_HASH_MEMORY_KIB: 65_536, PASSWORD_HASH_PASSES: 3 });
  t.like(parseConfig({ PASSWORD_HASH_MEMORY_KIB: '19456', PASSWORD_HASH_PASSES: '2' }), { PASSWORD_HASH_MEMORY_KIB: 19_456, PASSWORD_HASH_PASSES: 2 });
});

test('an administrator needs both a name and a password', (t) => {
  const error = t.throws(() => parseConfig({ ADMIN_USERNAME: 'root' }), { instanceOf: ConfigError });
  t.is(error?.variable, 'ADMIN_PASSWORD');
});

test('the JWT secret is generated once and kept in DATA_DIR', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'config-'));
  const first = loadConfig({ DATA_DIR: dir });
  const second = loadConfig({ DATA_DIR: dir });
  t.true(first.JWT_SECRET.length >= 32);
  t.is(first.JWT_SECRET, second.JWT_SECRET);
  t.is(readFileSync(join(dir, 'jwt-secret'), 'utf8'), first.JWT_SECRET);
});

test('the connections key is the operator\'s when valid, else generated once into DATA_DIR readable by its owner only', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'config-'));
  const first = loadConfig({ DATA_DIR: dir });
  t.is(loadConfig({ DATA_DIR: dir }).CONNECTIONS_KEY, first.CONNECTIONS_KEY);
  t.is(Buffer.from(first.CONNECTIONS_KEY, 'base64').length, 32);
  t.is(statSync(join(dir, 'connections-key')).mode & 0o777, 0o600);
  const given = 'ab'.repeat(32);
  t.is(loadConfig({ DATA_DIR: dir, CONNECTIONS_KEY: given }).CONNECTIONS_KEY, given);
  const error = t.throws(() => parseConfig({ CONNECTIONS_KEY: 'too-short' }), { instanceOf: ConfigError });
  t.is(error?.variable, 'CONNECTIONS_KEY');
});
