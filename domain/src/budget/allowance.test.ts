import test from 'ava';
import type { BudgetGuard } from '@scriptorium/domain/budget/guard';
import { estimateMessageTokens } from '@scriptorium/infra/model/tokens';
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
