import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'ava';
import { CommandHandler } from '@scriptorium/infra/eventsourcing/commandHandler';
import { SqliteEventStore } from '@scriptorium/infra/eventstore/sqlite';
import { collect, ModelError, type ModelDelta, type ModelProvider, type ModelRequest } from '@scriptorium/infra/model/port';
import { profileFor, type ModelProfile } from '@scriptorium/infra/model/profile';
import { measurePrompt } from '@scriptorium/infra/model/window';
import { BudgetGuard } from '../budget/guard.ts';
import { completeAccounted } from './accounted.ts';
import { modelCallStream } from './call.ts';

/** A provider that answers from a script and keeps what it was asked: the accounting is under test, not a model. */
class ScriptedProvider implements ModelProvider {
  readonly name = 'scripted';
  readonly offline = false;
  readonly requests: ModelRequest[] = [];
  constructor(readonly profile: ModelProfile, private readonly answer: (request: ModelRequest) => ModelDelta[] | ModelError) {}
  async *stream(request: ModelRequest): AsyncGenerator<ModelDelta> {
    this.requests.push(request);
    const answer = this.answer(request);
    if (answer instanceof ModelError) throw answer;
    yield* answer;
  }
  complete(request: ModelRequest) {
    return collect(this.stream(request));
  }
}

function setup(t: { teardown(fn: () => void): void }) {
  const dir = mkdtempSync(join(tmpdir(), 'accounted-'));
  const events = new SqliteEventStore(join(dir, 'events.sqlite3'));
  t.teardown(() => {
    void events.close().then(() => rmSync(dir, { recursive: true, force: true }));
  });
  const now = new Date('2026-03-01T02:00:00Z');
  const commands = new CommandHandler(events);
  const budget = new BudgetGuard(commands, { timeZone: 'Asia/Shanghai', tokensPerCoin: 1000, holdTokens: 8000, holdTtlSeconds: 1800 }, () => now);
  return { events, deps: { commands, budget, clock: () => now } };
}

const messages = [{ role: 'user' as const, content: '把这个问题改写得更适合搜索' }];

test('an accounted call asks its model’s output cap, not the budget left, and within its window', async (t) => {
  const { deps } = setup(t);
  const model = new ScriptedProvider(profileFor('gpt-4o'), () => [{ type: 'text', text: '改写' }, { type: 'usage', promptTokens: 12, completionTokens: 2, model: 'gpt-4o', estimated: false }]);
  const completion = await completeAccounted(deps, model, 'u1', 'call-1', { messages });
  t.is(completion.text, '改写');
  t.is(model.requests[0]!.maxTokens, 16_384);

  const small = new ScriptedProvider({ contextWindow: 8_192, maxOutputTokens: 2_048, reasoning: 'none' }, () => [{ type: 'usage', promptTokens: 1, completionTokens: 1, model: 'm', estimated: false }]);
  await completeAccounted(deps, small, 'u1', 'call-2', { messages, context: [{ title: 'long', text: 'words '.repeat(50_000) }] });
  const sent = small.requests[0]!;
  t.true(sent.context![0]!.text.length < 'words '.repeat(50_000).length);
  t.true(measurePrompt(sent) + sent.maxTokens! <= 8_192);
});

test('a call cut midway is charged the partial usage the error carries, and finished as failed', async (t) => {
  const { deps, events } = setup(t);
  const partialUsage = { promptTokens: 40, completionTokens: 25, model: 'deepseek-chat', estimated: true };
  const model = new ScriptedProvider(profileFor('deepseek-chat'), () => new ModelError('network', 'the stream ended before the model finished', { textEmitted: true, partialUsage }));
  await t.throwsAsync(completeAccounted(deps, model, 'u1', 'call-3', { messages }), { instanceOf: ModelError });
  const recorded = (await events.readStream(modelCallStream('call-3'))).map((event) => ({ type: event.type, data: event.data as Record<string, unknown> }));
  t.deepEqual(recorded.map((event) => event.type), ['TokensConsumed', 'ModelCallFinished']);
  t.like(recorded[0]!.data, { prompt: 40, completion: 25, model: 'deepseek-chat', userId: 'u1' });
  t.like(recorded[1]!.data, { outcome: 'failed' });
});
