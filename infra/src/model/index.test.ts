import test from 'ava';
import { ConfigError } from '@scriptorium/infra/config/config';
import { startMockOpenAI } from '../../../tests/support/mockOpenAI.ts';
import { createModelProvider, OfflineProvider, OpenAICompatibleProvider } from './index.ts';

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
