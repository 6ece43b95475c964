import test from 'ava';
import type { BudgetGuard } from '@scriptorium/domain/budget/guard';
import { estimateMessageTokens } from '@scriptorium/infra/model/tokens';
import { DEFAULT_PROFILE, profileFor } from '@scriptorium/infra/model/profile';
import { measurePrompt } from '@scriptorium/infra/model/window';
import { Allowance, BudgetExhaustedError } from '@scriptorium/domain/budget/allowance';

function budget(remaining: number, holds = true) {
  const held: string[] = [];
  const guard = {
    remainingTokens: async () => remaining,
    hold: async (_userId: string, call: { messageId: string }) => {
      held.push(call.messageId);
      return holds ? 'held' : 'exhausted';
    },
  } as unknown as BudgetGuard;
  return { deps: { budget: guard }, held };
}

const messages = [{ role: 'user' as const, content: '比较三种固态电池电解质的离子电导率' }];

test('a call is capped to what is left after its prompt', async (t) => {
  const { deps } = budget(500);
  const request = await new Allowance(deps, 'u1').ensure({ messages, maxTokens: 4000 });
  t.is(request.maxTokens, 500 - estimateMessageTokens(messages));
});

test('a smaller cap the caller asked for is kept', async (t) => {
  const { deps } = budget(500);
  const request = await new Allowance(deps, 'u1').ensure({ messages, maxTokens: 40 });
  t.is(request.maxTokens, 40);
});

test('what the job already spent counts before the read model sees it', async (t) => {
  const { deps } = budget(500);
  const allowance = new Allowance(deps, 'u1');
  await allowance.ensure({ messages });
  allowance.record({ promptTokens: 100, completionTokens: 300 });
  const request = await allowance.ensure({ messages });
  t.is(request.maxTokens, 100 - estimateMessageTokens(messages));
});

test('with a little left, a long prompt still gets a short answer, and with nothing left no call starts', async (t) => {
  const long = [{ role: 'user' as const, content: '长'.repeat(200) }];
  t.is((await new Allowance(budget(20).deps, 'u1').ensure({ messages: long })).maxTokens, 16);
  await t.throwsAsync(new Allowance(budget(0).deps, 'u1').ensure({ messages }), { instanceOf: BudgetExhaustedError });
});

test('a reply holds its budget once, and a refused hold stops the call', async (t) => {
  const granted = budget(500);
  const allowance = new Allowance(granted.deps, 'u1', { sessionId: 's1', messageId: 'm1' });
  await allowance.ensure({ messages });
  await allowance.check();
  t.deepEqual(granted.held, ['m1']);

  const refused = budget(500, false);
  await t.throwsAsync(new Allowance(refused.deps, 'u1', { sessionId: 's1', messageId: 'm2' }).check(), { instanceOf: BudgetExhaustedError });
});

test('with budget to spare, a call that asks no cap gets its model’s output cap, never the whole budget', async (t) => {
  const { deps } = budget(1_000_000_000);
  const deepseek = profileFor('deepseek-chat');
  t.is((await new Allowance(deps, 'u1').ensure({ messages }, deepseek)).maxTokens, 8_192);
  t.is((await new Allowance(deps, 'u1').ensure({ messages, maxTokens: 20_000 }, deepseek)).maxTokens, 8_192);
  t.is((await new Allowance(deps, 'u1').ensure({ messages, maxTokens: 1_200 }, deepseek)).maxTokens, 1_200);
  // Without a profile, the conservative default's.
  t.is((await new Allowance(deps, 'u1').ensure({ messages })).maxTokens, DEFAULT_PROFILE.maxOutputTokens);
});

test('a prompt over the model’s window is fitted before the budget is measured: sources cut, cap lowered', async (t) => {
  const { deps } = budget(1_000_000_000);
  const qwen = profileFor('qwen-plus');
  const context = [{ title: '长文', url: 'https://example.org/long', text: '固态电解质'.repeat(20_000) }];
  const request = await new Allowance(deps, 'u1').ensure({ messages, context, maxTokens: 8_192 }, qwen);
  t.true(measurePrompt(request) + request.maxTokens <= qwen.contextWindow);
  t.true(request.context![0]!.text.length < context[0]!.text.length);
  t.is(request.context![0]!.title, '长文');
});

test('the budget still caps below the model’s cap', async (t) => {
  const { deps } = budget(2_000);
  const request = await new Allowance(deps, 'u1').ensure({ messages }, profileFor('gpt-4o'));
  t.is(request.maxTokens, 2_000 - estimateMessageTokens(messages));
});

test('a job on one model gives its profile once, and every call it does not fit otherwise is fitted to it', async (t) => {
  const { deps } = budget(1_000_000_000);
  const allowance = new Allowance(deps, 'u1', { sessionId: 's1', messageId: 'm1' }, profileFor('gpt-4.1'));
  t.is((await allowance.ensure({ messages })).maxTokens, 32_768);
  t.is((await allowance.ensure({ messages }, profileFor('deepseek-chat'))).maxTokens, 8_192);
});
