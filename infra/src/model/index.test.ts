import test from 'ava';
import { ConfigError, parseConfig } from '@scriptorium/infra/config/config';
import { startMockOpenAI } from '../../../tests/support/mockOpenAI.ts';
import { createModelProvider, OfflineProvider, OpenAICompatibleProvider, providerFor } from './index.ts';

test('no LLM_BASE_URL means the offline engine', (t) => {
  const provider = createModelProvider({});
  t.true(provider instanceof OfflineProvider);
  t.true(provider.offline);
  t.true(createModelProvider({ LLM_BASE_URL: '  ' }).offline);
});

test('LLM_BASE_URL and LLM_MODEL give a working OpenAI-compatible client with the key', async (t) => {
  const mock = await startMockOpenAI({ apiKey: 'sk-1', reply: '好的。' });
  t.teardown(() => mock.close());
  const provider = createModelProvider({ LLM_BASE_URL: mock.origin, LLM_MODEL: 'qwen2.5:7b', LLM_API_KEY: 'sk-1' });
  t.true(provider instanceof OpenAICompatibleProvider);
  t.is(provider.name, 'openai-compatible:qwen2.5:7b');
  t.is((await provider.complete({ messages: [{ role: 'user', content: '你好' }] })).text, '好的。');
});

test('settings that would be silently ignored are refused, naming the variable', (t) => {
  t.like(t.throws(() => createModelProvider({ LLM_BASE_URL: 'http://localhost:11434' }), { instanceOf: ConfigError }), { variable: 'LLM_MODEL' });
  t.like(t.throws(() => createModelProvider({ LLM_MODEL: 'gpt-4o-mini' }), { instanceOf: ConfigError }), { variable: 'LLM_BASE_URL' });
  t.like(t.throws(() => createModelProvider({ LLM_API_KEY: 'sk-1' }), { instanceOf: ConfigError }), { variable: 'LLM_BASE_URL' });
});

test('LLM_PROFILE overrides the default model’s profile, and is checked field by field, naming the variable', (t) => {
  const config = parseConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'qwen2.5:7b', LLM_PROFILE: '{"contextWindow":131072,"reasoning":"think_tags"}' });
  const provider = createModelProvider(config);
  t.deepEqual(provider.profile, { contextWindow: 131_072, maxOutputTokens: 8_192, reasoning: 'think_tags' });
  for (const bad of ['{"contextWindow":10}', 'not json', '{"window":32768}', '{"reasoning":"loud"}']) {
    t.like(t.throws(() => parseConfig({ LLM_PROFILE: bad }), { instanceOf: ConfigError }), { variable: 'LLM_PROFILE' }, bad);
  }
  t.regex(t.throws(() => parseConfig({ LLM_PROFILE: '{"contextWindow":10}' }))!.message, /LLM_PROFILE contextWindow: /);
  t.like(t.throws(() => createModelProvider(parseConfig({ LLM_PROFILE: '{"contextWindow":8192}' }))), { variable: 'LLM_BASE_URL' });
});

test('LLM_ROLE_MODELS is an object from roles other than default to model names', (t) => {
  t.deepEqual(parseConfig({ LLM_ROLE_MODELS: '{"planning":"qwen-turbo","writing":"qwen-max"}' }).LLM_ROLE_MODELS, { planning: 'qwen-turbo', writing: 'qwen-max' });
  for (const bad of ['{"default":"qwen-max"}', '{"drafting":"qwen-max"}', '{"planning":""}', '{"planning":3}', '{}', '["qwen-max"]', 'qwen-max']) {
    t.like(t.throws(() => parseConfig({ LLM_ROLE_MODELS: bad }), { instanceOf: ConfigError }), { variable: 'LLM_ROLE_MODELS' }, bad);
  }
  t.like(t.throws(() => createModelProvider(parseConfig({ LLM_ROLE_MODELS: '{"planning":"qwen-turbo"}' }))), { variable: 'LLM_BASE_URL' });
});

test('providerFor builds an endpoint’s client with its family’s profile under its override', (t) => {
  const provider = providerFor({ baseUrl: 'http://127.0.0.1:1/v1', model: 'deepseek-reasoner', profile: { contextWindow: 131_072 } });
  t.is(provider.name, 'openai-compatible:deepseek-reasoner');
  t.deepEqual(provider.profile, { contextWindow: 131_072, maxOutputTokens: 8_192, reasoning: 'reasoning_content' });
});
