import test from 'ava';
import type { TokensConsumed } from '@scriptorium/domain/conversation/conversation';
import { projectionSpec } from './testing.ts';
import { DAILY_USAGE, dailyUsageId, SESSION_USAGE, tokenUsageProjection, USER_USAGE } from './tokenUsage.ts';

const spec = projectionSpec<TokensConsumed>(tokenUsageProjection('Asia/Shanghai'));
const consumed = (at: string, prompt: number, completion: number, overrides: Partial<TokensConsumed['data']> = {}): TokensConsumed => ({
  type: 'TokensConsumed',
  data: { userId: 'u1', sessionId: 's1', messageId: 'm2', prompt, completion, model: 'gpt-4.1', at, ...overrides },
});
// 23:30 UTC is already the next day in Shanghai.
const calls = spec.given(consumed('2026-03-01T10:00:00.000Z', 100, 20), consumed('2026-03-01T23:30:00.000Z', 50, 5), consumed('2026-03-02T01:00:00.000Z', 10, 1, { sessionId: null, model: 'small' }));

test('usage is summed per user per day in the configured time zone', async (t) => {
  await calls.then(t, DAILY_USAGE, [
    { _id: dailyUsageId('u1', '2026-03-01'), user_id: 'u1', day: '2026-03-01', prompt_tokens: 100, completion_tokens: 20, total_tokens: 120, calls: 1 },
    { _id: dailyUsageId('u1', '2026-03-02'), day: '2026-03-02', prompt_tokens: 60, completion_tokens: 6, total_tokens: 66, calls: 2, updated_at: '2026-03-02T01:00:00.000Z' },
  ]);
});

test('all-time usage per user remembers the last day used', async (t) => {
  await calls.thenDoc(t, USER_USAGE, 'u1', { prompt_tokens: 160, completion_tokens: 26, total_tokens: 186, calls: 3, last_day: '2026-03-02' });
});

test('usage per session counts each model, and calls outside a session are left out', async (t) => {
  await calls.then(t, SESSION_USAGE, [{ _id: 's1', user_id: 'u1', session_id: 's1', total_tokens: 175, calls: 2, models: { 'gpt-4_1': 175 }, updated_at: '2026-03-01T23:30:00.000Z' }]);
});

test('the admin overview lists the most recently used sessions first', async (t) => {
  await spec
    .given(consumed('2026-03-01T10:00:00.000Z', 1, 1), consumed('2026-03-01T11:00:00.000Z', 1, 1, { sessionId: 's2' }))
    .then(t, SESSION_USAGE, [{ _id: 's2' }, { _id: 's1' }], { sort: { updated_at: -1 } });
});

test('a call replayed after a crash (standalone Mongo) is counted once', async (t) => {
  await spec.given(consumed('2026-03-01T10:00:00.000Z', 100, 20)).replayed().thenDoc(t, USER_USAGE, 'u1', { calls: 1 });
});
