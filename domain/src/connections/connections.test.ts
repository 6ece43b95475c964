import test from 'ava';
import { at, deciderSpec } from '@scriptorium/infra/eventsourcing/testing';
import { connectionsDecider, type ConnectionsCommand } from './decide.ts';
import { evolve, initialState, type ConnectionsEvent } from './connections.ts';

const spec = deciderSpec(connectionsDecider);
const now = at('2026-03-01T08:00:00Z');
const AT = '2026-03-01T08:00:00.000Z';

const configure = (data: Partial<Extract<ConnectionsCommand, { type: 'ConfigureModelEndpoint' }>['data']> = {}): ConnectionsCommand => ({
  type: 'ConfigureModelEndpoint',
  data: { id: 'fast', baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', profile: {}, roles: ['planning', 'judging'], encryptedKey: 'v1.sealed', by: 'admin', ...data },
  metadata: now,
});
const fast: ConnectionsEvent = {
  type: 'ModelEndpointConfigured',
  data: { v: 1, id: 'fast', baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', profile: {}, roles: ['planning', 'judging'], encryptedKey: 'v1.sealed', by: 'admin', at: AT },
};
const strong: ConnectionsEvent = {
  type: 'ModelEndpointConfigured',
  data: { v: 1, id: 'strong', baseUrl: 'http://vllm:8000/v1', model: 'qwen3-32b', profile: { maxOutputTokens: 8192 }, roles: ['default', 'writing'], encryptedKey: null, by: 'admin', at: AT },
};

test('an administrator configures a model endpoint: its roles in catalogue order, its key only as given (sealed)', (t) => {
  spec([]).when(configure({ roles: ['judging', 'planning'] })).then(t, [fast]);
});

test('bad endpoints are refused with their codes', (t) => {
  spec([]).when(configure({ baseUrl: 'ftp://models.example.com' })).thenThrows(t, 'invalid', '地址需以 http:// 或 https:// 开头');
  spec([]).when(configure({ baseUrl: 'not a url' })).thenThrows(t, 'invalid', '地址需以 http:// 或 https:// 开头');
  spec([]).when(configure({ baseUrl: 'https://user:sk-secret@api.example.com' })).thenThrows(t, 'invalid', '地址中不能包含用户名或密码，请把密钥填在密钥栏');
  spec([]).when(configure({ roles: ['planning', 'dreaming'] })).thenThrows(t, 'invalid', '未知的用途：dreaming');
  spec([]).when(configure({ roles: [] })).thenThrows(t, 'invalid', '请至少选择一个用途');
  spec([]).when(configure({ model: '  ' })).thenThrows(t, 'invalid', '请填写模型名称');
  spec([]).when(configure({ id: 'Bad Id' })).thenThrows(t, 'invalid', '模型端点 ID 格式不正确');
  spec([]).when(configure({ profile: { maxOutputTokens: 2 } })).thenThrows(t, 'invalid', '模型参数不正确：maxOutputTokens');
  spec([]).when(configure({ profile: { windowSize: 9 } as never })).thenThrows(t, 'invalid');
  spec([fast]).when(configure()).thenThrows(t, 'conflict', '模型端点已存在');
});

test('two endpoints cannot claim the same role, except default', (t) => {
  spec([fast]).when(configure({ id: 'other', roles: ['judging'] })).thenThrows(t, 'conflict', '用途“judging”已由另一个模型端点 fast 承担');
  spec([strong]).when(configure({ id: 'other', roles: ['default'] })).then(t, [
    { type: 'ModelEndpointConfigured', data: { v: 1, id: 'other', baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', profile: {}, roles: ['default'], encryptedKey: 'v1.sealed', by: 'admin', at: AT } },
  ]);
  spec([fast, strong]).when({ type: 'ChangeModelEndpoint', data: { id: 'strong', baseUrl: 'http://vllm:8000/v1', model: 'qwen3-32b', profile: {}, roles: ['writing', 'planning'], by: 'admin' }, metadata: now }).thenThrows(t, 'conflict');
});

test('a change keeps the saved key unless a new one (or none) is given, and an unchanged endpoint appends nothing', (t) => {
  const change = (data: { encryptedKey?: string | null; model?: string }): ConnectionsCommand => ({
    type: 'ChangeModelEndpoint',
    data: { id: 'fast', baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', profile: {}, roles: ['planning', 'judging'], by: 'admin', ...data },
    metadata: now,
  });
  spec([fast]).when(change({})).then(t, []);
  spec([fast]).when(change({ model: 'deepseek-reasoner' })).then(t, [
    { type: 'ModelEndpointChanged', data: { v: 1, keyChanged: false, id: 'fast', baseUrl: 'https://api.deepseek.com', model: 'deepseek-reasoner', profile: {}, roles: ['planning', 'judging'], encryptedKey: 'v1.sealed', by: 'admin', at: AT } },
  ]);
  spec([fast]).when(change({ encryptedKey: null })).then(t, [
    { type: 'ModelEndpointChanged', data: { v: 1, keyChanged: true, id: 'fast', baseUrl: 'https://api.deepseek.com', model: 'deepseek-chat', profile: {}, roles: ['planning', 'judging'], encryptedKey: null, by: 'admin', at: AT } },
  ]);
  spec([]).when(change({})).thenThrows(t, 'not_found', '模型端点不存在');
});

test('removing an endpoint frees its roles; removing it again appends nothing', (t) => {
  const remove: ConnectionsCommand = { type: 'RemoveModelEndpoint', data: { id: 'fast', by: 'admin' }, metadata: now };
  const removed: ConnectionsEvent = { type: 'ModelEndpointRemoved', data: { v: 1, id: 'fast', by: 'admin', at: AT } };
  spec([fast]).when(remove).then(t, [removed]);
  spec([fast, removed]).when(remove).then(t, []);
  spec([fast, removed]).when(configure({ id: 'again' })).then(t, [{ ...fast, data: { ...fast.data, id: 'again' } } as ConnectionsEvent]);
});

test('search, SMTP and speech are set and cleared; bad addresses and senders are refused', (t) => {
  const setSearch: ConnectionsCommand = { type: 'SetSearchEngine', data: { url: 'http://searxng:8080', by: 'admin' }, metadata: now };
  const searchSet: ConnectionsEvent = { type: 'SearchEngineSet', data: { v: 1, url: 'http://searxng:8080', by: 'admin', at: AT } };
  spec([]).when(setSearch).then(t, [searchSet]);
  spec([searchSet]).when(setSearch).then(t, []);
  spec([searchSet]).when({ type: 'ClearSearchEngine', data: { by: 'admin' }, metadata: now }).then(t, [{ type: 'SearchEngineCleared', data: { v: 1, by: 'admin', at: AT } }]);
  spec([]).when({ type: 'ClearSearchEngine', data: { by: 'admin' }, metadata: now }).then(t, []);

  const smtp = (data: { url?: string; from?: string; encryptedPassword?: string | null }): ConnectionsCommand => ({
    type: 'SetSmtp',
    data: { url: 'smtps://mailer@smtp.example.com:465', from: 'Scriptorium <no-reply@example.com>', by: 'admin', ...data },
    metadata: now,
  });
  const smtpSet: ConnectionsEvent = {
    type: 'SmtpSet',
    data: { v: 1, url: 'smtps://mailer@smtp.example.com:465', from: 'Scriptorium <no-reply@example.com>', encryptedPassword: 'v1.pw', passwordChanged: true, by: 'admin', at: AT },
  };
  spec([]).when(smtp({ encryptedPassword: 'v1.pw' })).then(t, [smtpSet]);
  spec([smtpSet]).when(smtp({})).then(t, []);
  spec([smtpSet]).when(smtp({ from: 'ops@example.com' })).then(t, [{ type: 'SmtpSet', data: { ...smtpSet.data, from: 'ops@example.com', passwordChanged: false } } as ConnectionsEvent]);
  spec([]).when(smtp({ url: 'http://smtp.example.com' })).thenThrows(t, 'invalid', 'SMTP 地址需以 smtp:// 或 smtps:// 开头');
  spec([]).when(smtp({ url: 'smtp://mailer:secret@smtp.example.com' })).thenThrows(t, 'invalid', '地址中不能包含用户名或密码，请把密钥填在密钥栏');
  spec([]).when(smtp({ from: 'nobody' })).thenThrows(t, 'invalid', '发件人需为邮箱地址，如 Scriptorium <no-reply@example.com>');

  const speechSet: ConnectionsEvent = { type: 'SpeechSet', data: { v: 1, baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', encryptedKey: 'v1.k', keyChanged: true, by: 'admin', at: AT } };
  spec([]).when({ type: 'SetSpeech', data: { baseUrl: 'https://api.openai.com/v1', model: 'whisper-1', encryptedKey: 'v1.k', by: 'admin' }, metadata: now }).then(t, [speechSet]);
  spec([speechSet]).when({ type: 'ClearSpeech', data: { by: 'admin' }, metadata: now }).then(t, [{ type: 'SpeechCleared', data: { v: 1, by: 'admin', at: AT } }]);
});

test('a test is recorded for what is configured only, its result cut to a line; a change forgets the last test', (t) => {
  const tested = (target: 'model' | 'search', endpointId?: string): ConnectionsCommand => ({
    type: 'RecordConnectionTest',
    data: { target, ...(endpointId && { endpointId }), ok: true, latencyMs: 41.6, result: 'x'.repeat(500), by: 'admin' },
    metadata: now,
  });
  const recorded = connectionsDecider.decide(tested('model', 'fast'), [fast].reduce(evolve, initialState()));
  t.like(recorded, { type: 'ConnectionTested', data: { target: 'model', endpointId: 'fast', ok: true, latencyMs: 42 } });
  t.is((recorded as Extract<ConnectionsEvent, { type: 'ConnectionTested' }>).data.result.length, 300);
  spec([]).when(tested('model', 'fast')).thenThrows(t, 'not_found', '模型端点不存在');
  spec([]).when(tested('search')).thenThrows(t, 'not_found', '该连接尚未配置');

  const state = [fast, recorded as ConnectionsEvent].reduce(evolve, initialState());
  t.true(state.status === 'configured' && 'model:fast' in state.tests);
  const changed = evolve(state, { type: 'ModelEndpointChanged', data: { ...fast.data, keyChanged: true } } as ConnectionsEvent);
  t.false(changed.status === 'configured' && 'model:fast' in changed.tests);
});

test('the environment seeds an empty stream once: the default model with its profile, a model per role', (t) => {
  const seed: ConnectionsCommand = {
    type: 'SeedConnections',
    data: {
      endpoints: [
        { id: 'env', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3:14b', profile: { contextWindow: 16_384 }, roles: ['default'], encryptedKey: null },
        { id: 'env-writing', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3:32b', profile: {}, roles: ['writing'], encryptedKey: null },
      ],
      search: { url: 'http://searxng:8080' },
      by: 'environment',
    },
    metadata: now,
  };
  spec([]).when(seed).then(t, [
    { type: 'ModelEndpointConfigured', data: { v: 1, id: 'env', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3:14b', profile: { contextWindow: 16_384 }, roles: ['default'], encryptedKey: null, by: 'environment', at: AT } },
    { type: 'ModelEndpointConfigured', data: { v: 1, id: 'env-writing', baseUrl: 'http://127.0.0.1:11434', model: 'qwen3:32b', profile: {}, roles: ['writing'], encryptedKey: null, by: 'environment', at: AT } },
    { type: 'SearchEngineSet', data: { v: 1, url: 'http://searxng:8080', by: 'environment', at: AT } },
  ]);
  spec([fast]).when(seed).then(t, []);
  spec([fast, { type: 'ModelEndpointRemoved', data: { v: 1, id: 'fast', by: 'admin', at: AT } }]).when(seed).then(t, []);
});
