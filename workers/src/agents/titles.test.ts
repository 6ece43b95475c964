import test from 'ava';
import { Allowance } from '@scriptorium/domain/budget/allowance';
import type { BudgetGuard } from '@scriptorium/domain/budget/guard';
import type { AgentJobData } from '@scriptorium/domain/conversation/jobs';
import { DEFAULT_PROFILE } from '@scriptorium/infra/model/profile';
import type { AgentDeps } from './deps.ts';
import type { ReplyWriter } from './replyWriter.ts';
import { cleanTitle, headlineOf, reportTitleOf, titleSessionIfUntitled } from './titles.ts';

test('a generated title is one clean line', (t) => {
  t.is(cleanTitle('“固态电池技术路线对比”。'), '固态电池技术路线对比');
  t.is(cleanTitle('好的，这是页面：<artifact filename="calc.html" type="text/html"><h1>x</h1></artifact>'), '好的，这是页面');
  t.is(cleanTitle('\n\n事件溯源入门\n第二行不要'), '事件溯源入门');
  t.is(cleanTitle('<div></div>'), '');
  t.is(cleanTitle('长'.repeat(40)).length, 30);
});

test('offline, the title is the question’s first clause', (t) => {
  t.is(headlineOf('什么是事件溯源？请详细说明。'), '什么是事件溯源');
});

test('a report’s heading is the brief’s first clause whole, capitalised in English, and cut at a word only when very long', (t) => {
  t.is(reportTitleOf('write a script that counts lines'), 'Write a script that counts lines');
  t.is(reportTitleOf('面向公司管理层写一篇简报：钠离子电池在储能电站中的低温表现和成本优势。请引用我的笔记。'), '面向公司管理层写一篇简报：钠离子电池在储能电站中的低温表现和成本优势');
  const long = reportTitleOf(`a review of ${'very '.repeat(30)}long things`);
  t.true(long.length <= 80 && long.endsWith('very…'), long);
});

/** A chat reply's title call, with the reply's allowance standing on a budget that has `left` tokens. */
async function titleWith(left: number, question = '什么是事件溯源？请详细说明。') {
  const asked: Array<{ maxTokens?: number; messages: Array<{ content: string }> }> = [];
  const titles: string[] = [];
  const deps = {
    commands: {
      load: async () => ({ state: { status: 'open', title: null } }),
      handle: async (_decider: unknown, _stream: string, command: { data: { title: string } }) => void titles.push(command.data.title),
    },
    model: {
      offline: false,
      profile: DEFAULT_PROFILE,
      complete: async (request: { maxTokens?: number; messages: Array<{ content: string }> }) => {
        asked.push(request);
        return { text: '事件溯源入门', usage: { promptTokens: 30, completionTokens: 6 } };
      },
    },
    log: { warn: () => undefined },
    clock: () => new Date('2026-03-01T00:00:00Z'),
  } as unknown as AgentDeps;
  const budget = { remainingTokens: async () => left, hold: async () => (left > 0 ? 'held' : 'exhausted') } as unknown as BudgetGuard;
  const allowance = new Allowance({ budget }, 'u1', { sessionId: 's1', messageId: 'r1' });
  const writer = { tokens: async () => undefined } as unknown as ReplyWriter;
  const job = { sessionId: 's1', userId: 'u1', replyId: 'r1' } as AgentJobData;
  await titleSessionIfUntitled(deps, job, question, '事件溯源把每一次变化记录为事件。', writer, allowance);
  return { asked, titles };
}

test('a title is a call of the reply: made within what the budget has left, and not made once it is spent', async (t) => {
  const spent = await titleWith(0);
  t.is(spent.asked.length, 0);
  t.deepEqual(spent.titles, ['什么是事件溯源']);
  const some = await titleWith(5_000);
  t.is(some.asked.length, 1);
  t.true(some.asked[0]!.maxTokens! <= 40);
  t.deepEqual(some.titles, ['事件溯源入门']);
});

test("a title is asked for in the question's language, so the model neither answers in another nor keeps a label of it", async (t) => {
  const english = await titleWith(5_000, 'What is event sourcing, in detail?');
  t.regex(english.asked[0]!.messages[0]!.content, /^Give the conversation below a short title/);
  t.regex(english.asked[0]!.messages[1]!.content, /^Question: What is event sourcing/);
  const chinese = await titleWith(5_000);
  t.regex(chinese.asked[0]!.messages[1]!.content, /^问题：什么是事件溯源/);
});
