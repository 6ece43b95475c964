import test from 'ava';
import { createActor, fromCallback, fromPromise, SimulatedClock, type EventObject } from 'xstate';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import type { ServerMessage } from '@scriptorium/domain/protocol/ws';
import type { SessionCommand } from '../research/commands.ts';
import { sessionDto } from './fixtures.ts';
import type { History, HistoryMessage } from '@scriptorium/domain/protocol/http/conversation';
import { researchSessionMachine, type LoadedSession, type SettingChange } from './researchSession.ts';


const empty = (id: string): LoadedSession => ({ dto: sessionDto(id), history: { position: 0, messages: [] }, canvas: null });

let position = 0;
/** A stream item as the server sends it; fields the item type needs come from `fields`. */
const content = (fields: Record<string, unknown> & { content_type: string; message_id: string }): ServerMessage => ({
  type: 'message',
  session_id: 's-1',
  position: ++position,
  content: { agent: 'deep_cognition', timestamp: '2025-06-01T00:00:00Z', updated_at: '2025-06-01T00:00:00Z', ...fields } as WireContent,
});

/** A session whose deliveries are recorded; `refuse` decides which commands fail on delivery. */
function session(
  options: {
    loaded?: LoadedSession;
    load?: () => Promise<LoadedSession>;
    save?: (change: SettingChange) => Promise<unknown>;
    refuse?: (command: SessionCommand) => string | null;
    earlier?: (before: string) => Promise<History>;
  } = {},
) {
  const delivered: SessionCommand[] = [];
  const machine = researchSessionMachine.provide({
    // Alone, with no workspace above it to tell.
    actions: { failed: () => undefined },
    actors: {
      loadSession: fromPromise<LoadedSession, { id: string }>(() => (options.load ?? (() => Promise.resolve(empty('s-1'))))()),
      deliver: fromCallback<EventObject, { id: string; sessionId: string; command: SessionCommand }>(({ input, sendBack }) => {
        delivered.push(input.command);
        const refusal = options.refuse?.(input.command) ?? null;
        sendBack(refusal === null ? { type: 'command.delivered', id: input.id } : { type: 'command.refused', id: input.id, message: refusal });
      }),
      saveSetting: fromPromise<unknown, { sessionId: string; change: SettingChange }>(({ input }) => (options.save ?? (() => Promise.resolve()))(input.change)),
      loadEarlier: fromPromise<History, { id: string; before: string }>(({ input }) => (options.earlier ?? (() => Promise.reject(new Error('none'))))(input.before)),
    },
  });
  const actor = createActor(machine, { clock: new SimulatedClock(), input: { id: 's-1', ...(options.loaded && { loaded: options.loaded }) } }).start();
  return { actor, delivered };
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const OUT_OF_BUDGET = 'Token使用额度已用尽，请联系管理员进行充值';

test('a session is loaded, then ready and subscribed', async (t) => {
  const { actor } = session({ load: async () => ({ ...empty('s-1'), dto: sessionDto('s-1', { name: '电池', message_count: 2 }) }) });
  t.true(actor.getSnapshot().matches('loading'));
  await tick();
  t.true(actor.getSnapshot().matches({ ready: { link: 'subscribed' } }));
  t.is(actor.getSnapshot().context.name, '电池');
  t.is(actor.getSnapshot().context.layoutPreset, 'chat-interface-only', 'a session with messages opens on the chat');
});

test('a session that cannot be loaded ends as failed', async (t) => {
  const { actor } = session({ load: () => Promise.reject(new Error('会话不存在')) });
  await tick();
  t.true(actor.getSnapshot().matches('failed'));
});

test('a read-only session is never subscribed', (t) => {
  const machine = researchSessionMachine;
  const actor = createActor(machine, { input: { id: 'share-1', readOnly: true, loaded: empty('share-1') } }).start();
  t.true(actor.getSnapshot().matches({ ready: { link: 'none' } }));
  actor.send({ type: 'conversation.send', text: '你好' });
  t.deepEqual(actor.getSnapshot().context.outbox, [], 'sending is disabled');
});

test('out of budget: the question stays with the server\'s words under it until the next try', (t) => {
  const { actor, delivered } = session({ loaded: empty('s-1') });
  actor.send({ type: 'conversation.send', text: '  固态电池  ' });
  t.deepEqual(delivered, [{ kind: 'user_input', agent: 'deep_cognition', content: '固态电池' }]);
  t.is(actor.getSnapshot().context.outbox.length, 1, 'shown while on its way');
  // The socket refuses it (the server checks the budget before writing anything).
  actor.send({ type: 'socket.message', message: { type: 'error', error_message: OUT_OF_BUDGET, code: 'budget.exhausted', session_id: 's-1', content_type: 'user_input' } });
  const [pending] = actor.getSnapshot().context.outbox;
  t.is(pending?.error, OUT_OF_BUDGET);
  t.deepEqual(pending?.command, { kind: 'user_input', agent: 'deep_cognition', content: '固态电池' });
});

test('a question that could not be sent is sent again in its place, or let go, at the reader\'s word', (t) => {
  let offline = true;
  const { actor, delivered } = session({ loaded: empty('s-1'), refuse: () => (offline ? '服务器无响应，请检查网络连接' : null) });
  actor.send({ type: 'conversation.send', text: '第一问' });
  actor.send({ type: 'conversation.send', text: '第二问' });
  const [first, second] = actor.getSnapshot().context.outbox;
  t.truthy(first?.error);
  offline = false;
  actor.send({ type: 'command.retry', id: first!.id });
  const outbox = actor.getSnapshot().context.outbox;
  t.is(outbox.length, 2);
  t.like(outbox[0], { error: null, command: { content: '第一问' } }, 'in its place, waiting for its echo');
  t.not(outbox[0]!.id, first!.id);
  t.deepEqual(delivered.map((command) => (command.kind === 'user_input' ? command.content : command.kind)), ['第一问', '第二问', '第一问']);
  actor.send({ type: 'command.retry', id: outbox[0]!.id });
  t.is(delivered.length, 3, 'a question on its way is not sent twice');
  actor.send({ type: 'command.discard', id: outbox[0]!.id });
  t.is(actor.getSnapshot().context.outbox.length, 2, 'one on its way is not let go either');
  actor.send({ type: 'command.discard', id: second!.id });
  t.deepEqual(actor.getSnapshot().context.outbox.map((pending) => pending.id), [outbox[0]!.id]);
});

test('a question shown while on its way goes once the conversation has it', (t) => {
  const { actor } = session({ loaded: empty('s-1') });
  actor.send({ type: 'conversation.send', text: '固态电池' });
  actor.send({ type: 'socket.message', message: content({ agent: 'user', content_type: 'user_input', message_id: 'm-1', content: '固态电池' }) });
  t.deepEqual(actor.getSnapshot().context.outbox, []);
  t.is(actor.getSnapshot().context.conversation.messages.length, 1);
});

test('continue asks the server once, is settled by the continued reply, and a refusal is said and not kept', (t) => {
  let refusal: string | null = null;
  const { actor, delivered } = session({ loaded: empty('s-1'), refuse: (command) => (command.kind === 'resume' ? refusal : null) });
  actor.send({ type: 'conversation.resume', agent: 'deep_cognition' });
  t.deepEqual(delivered, [{ kind: 'resume', agent: 'deep_cognition' }]);
  t.like(actor.getSnapshot().context.outbox[0], { command: { kind: 'resume' }, error: null }, 'asked, waiting for the reply to go on');
  actor.send({ type: 'socket.message', message: content({ content_type: 'message_start', message_id: 'r-2' }) });
  t.deepEqual(actor.getSnapshot().context.outbox, []);
  refusal = '没有可以继续的回复';
  actor.send({ type: 'conversation.resume', agent: 'deep_cognition' });
  t.deepEqual(actor.getSnapshot().context.outbox, [], 'nothing is left in the conversation to send again');
  t.is(actor.getSnapshot().context.error, refusal);
});

test('a read-only session read again follows the research: a later history replaces the conversation, an earlier or the same one changes nothing', (t) => {
  const plan = (index: number) => ({
    content_type: 'mark_in_progress_plan_step',
    agent: 'deep_cognition',
    message_id: 'r1',
    index,
    research_plan: ['a', 'b'].map((description, step) => ({ step: step + 1, description, status: step < index ? 'completed' : step === index ? 'in_progress' : 'not_started' })),
    timestamp: '2025-06-01T00:00:00Z',
    updated_at: '2025-06-01T00:00:00Z',
  }) as WireContent;
  const at = (position: number, marks: number[], processing = true): LoadedSession => ({
    dto: sessionDto('share-1', { processing }),
    history: { position, messages: [{ message_id: 'r1', role: 'assistant', agent: 'deep_cognition', reply_to: 'm1', status: 'streaming', created_at: '2025-06-01T00:00:00Z', updated_at: '2025-06-01T00:00:00Z', contents: marks.map(plan) }] },
    canvas: null,
  });
  const actor = createActor(researchSessionMachine, { input: { id: 'share-1', readOnly: true, loaded: at(5, [0]) } }).start();
  const marks = () => actor.getSnapshot().context.conversation.messages[0]!.contents.length;
  actor.send({ type: 'shared.refreshed', loaded: at(9, [0, 1]) });
  t.is(marks(), 2);
  t.true(actor.getSnapshot().context.conversation.busy);
  actor.send({ type: 'shared.refreshed', loaded: at(7, [0]) });
  t.is(marks(), 2, 'an older read is not shown over a newer one');
  actor.send({ type: 'shared.refreshed', loaded: at(12, [0, 1, 2], false) });
  t.is(marks(), 3);
  t.false(actor.getSnapshot().context.conversation.busy);

  const { actor: own } = session({ loaded: empty('s-1') });
  own.send({ type: 'shared.refreshed', loaded: at(9, [0, 1]) });
  t.deepEqual(own.getSnapshot().context.conversation.messages, [], "the owner's own session follows its socket");
});

test('a read-only session cannot be continued', (t) => {
  const actor = createActor(researchSessionMachine, { input: { id: 'share-1', readOnly: true, loaded: empty('share-1') } }).start();
  actor.send({ type: 'conversation.resume', agent: 'deep_cognition' });
  t.deepEqual(actor.getSnapshot().context.outbox, []);
});

test('continue editing refused over HTTP stops with the message', (t) => {
  const { actor } = session({ loaded: empty('s-1'), refuse: (command) => (command.kind === 'feedback_response' ? OUT_OF_BUDGET : null) });
  actor.send({ type: 'feedback.give', option: 'continue' });
  t.is(actor.getSnapshot().context.outbox[0]?.error, OUT_OF_BUDGET);
});

test('a pending targeted edit stops with the refusal instead of waiting forever', (t) => {
  const { actor, delivered } = session({ loaded: empty('s-1') });
  actor.send({ type: 'edit.request', text: '改写', snippet: '电池', offset: 12, version: 2 });
  const edit = actor.getSnapshot().children.targetedEdit!;
  t.true(edit.getSnapshot().matches('pending'));
  t.like(delivered[0], { kind: 'targeted_edit', request: { text: '改写', snippet: '电池', offset: 12, version: 2 } });
  actor.send({ type: 'socket.message', message: { type: 'error', error_message: OUT_OF_BUDGET, code: 'budget.exhausted', session_id: 's-1', content_type: 'targeted_edit' } });
  t.true(edit.getSnapshot().matches('failed'));
  t.is(edit.getSnapshot().context.error, OUT_OF_BUDGET);
});

test('a targeted edit refused for budget keeps its instruction and is sent again as it was, under a new id', (t) => {
  let refusing = true;
  const { actor, delivered } = session({ loaded: empty('s-1'), refuse: (command) => (command.kind === 'targeted_edit' && refusing ? OUT_OF_BUDGET : null) });
  actor.send({ type: 'edit.request', text: ' 改写得更简洁 ', snippet: '电池', offset: 12, version: 2 });
  const edit = actor.getSnapshot().children.targetedEdit!;
  t.true(edit.getSnapshot().matches('failed'));
  t.like(edit.getSnapshot().context, { error: OUT_OF_BUDGET, request: { text: '改写得更简洁', snippet: '电池', offset: 12, version: 2 } });
  refusing = false;
  edit.send({ type: 'edit.retried' });
  t.true(edit.getSnapshot().matches('pending'));
  t.is(edit.getSnapshot().context.error, null);
  const [first, again] = delivered as Array<Extract<SessionCommand, { kind: 'targeted_edit' }>>;
  t.like(again, { kind: 'targeted_edit', request: { text: '改写得更简洁', snippet: '电池', offset: 12, version: 2 } });
  t.not(again!.request.request_id, first!.request.request_id);
});

test('a targeted edit ends when its answer arrives: a new version, or the agent\'s reason', (t) => {
  const { actor, delivered } = session({ loaded: empty('s-1') });
  actor.send({ type: 'edit.request', text: '改写', snippet: '电池', offset: 0, version: 1 });
  const edit = actor.getSnapshot().children.targetedEdit!;
  const requestId = (delivered[0] as Extract<SessionCommand, { kind: 'targeted_edit' }>).request.request_id;
  actor.send({ type: 'socket.message', message: content({ agent: 'targeted_edit', content_type: 'error', message_id: requestId, error_message: '选中的文本已不在当前版本中' }) });
  t.true(edit.getSnapshot().matches('failed'));
  t.is(edit.getSnapshot().context.error, '选中的文本已不在当前版本中');
  t.deepEqual(actor.getSnapshot().context.outbox, []);
});

test('a blank targeted edit is not sent', (t) => {
  const { actor, delivered } = session({ loaded: empty('s-1') });
  actor.send({ type: 'edit.request', text: '  ', snippet: '电池', offset: 0, version: 1 });
  t.deepEqual(delivered, []);
  t.true(actor.getSnapshot().children.targetedEdit!.getSnapshot().matches('idle'));
});

test('renaming shows the new name at once and keeps it once saved', async (t) => {
  const saved: SettingChange[] = [];
  const { actor } = session({ loaded: empty('s-1'), save: async (change) => void saved.push(change) });
  actor.send({ type: 'settings.rename', input: '  电池综述 ' });
  t.true(actor.getSnapshot().matches({ ready: { settings: 'saving' } }));
  t.is(actor.getSnapshot().context.title, '电池综述', 'the label (title first) changes at once');
  await tick();
  t.true(actor.getSnapshot().matches({ ready: { settings: 'idle' } }));
  t.deepEqual(saved, [{ field: 'title', value: '电池综述' }]);
  t.is(actor.getSnapshot().context.title, '电池综述');
  actor.send({ type: 'settings.rename', input: '   ' });
  t.true(actor.getSnapshot().matches({ ready: { settings: 'idle' } }), 'a blank rename cancels');
});

test('a rename the server refuses puts the old name back and says why', async (t) => {
  const { actor } = session({ loaded: { ...empty('s-1'), dto: sessionDto('s-1', { title: '旧标题' }) }, save: () => Promise.reject(new Error('标题最多 200 个字符')) });
  actor.send({ type: 'settings.rename', input: '新标题' });
  await tick();
  t.is(actor.getSnapshot().context.title, '旧标题');
  t.is(actor.getSnapshot().context.error, '标题最多 200 个字符');
});

test('metadata updates of the session arrive through its subscription', (t) => {
  const { actor } = session({ loaded: empty('s-1') });
  actor.send({ type: 'socket.message', message: { type: 'metadata_update', session_id: 's-1', position: 50, updated_fields: { title: '固态电池综述' } } });
  t.is(actor.getSnapshot().context.title, '固态电池综述');
  t.is(actor.getSnapshot().context.conversation.position, 50);
});

test('writing in the stream opens the canvas and fills the writing child', (t) => {
  const { actor } = session({ loaded: empty('s-1') });
  actor.send({ type: 'socket.message', message: content({ content_type: 'writing_start', message_id: 'r-1', artifact_id: 'dccanvas', version: 1, title: '报告' }) });
  t.is(actor.getSnapshot().context.panel, 'canvas');
  actor.send({ type: 'socket.message', message: content({ content_type: 'writing_content', message_id: 'r-1', artifact_id: 'dccanvas', content: '第一段' }) });
  t.is(actor.getSnapshot().children.writing!.getSnapshot().context.draft?.content, '第一段');
});

test('each request to see a panel is counted, so a phone can bring its tab forward; hiding one or a panel opened by the stream is not a request', async (t) => {
  const { actor } = session();
  await tick();
  actor.send({ type: 'socket.message', message: content({ content_type: 'writing_start', message_id: 'w-1', version: 1 }) });
  t.is(actor.getSnapshot().context.panel, 'canvas');
  t.is(actor.getSnapshot().context.panelRequests, 0);
  actor.send({ type: 'panel.canvas', open: true });
  actor.send({ type: 'panel.canvas', open: true });
  t.is(actor.getSnapshot().context.panelRequests, 2, 'asking again for a panel already shown still counts');
  actor.send({ type: 'panel.canvas', open: false });
  actor.send({ type: 'panel.artifact', artifact: null });
  t.is(actor.getSnapshot().context.panelRequests, 2);
  actor.send({ type: 'panel.artifact', artifact: { filename: 'a.html', content: '<p>a</p>', filetype: 'html', messageId: 'm-1' } });
  t.deepEqual([actor.getSnapshot().context.panel, actor.getSnapshot().context.panelRequests], ['artifact', 3]);
});

test('earlier exchanges load a page at a time before those shown, and a failed page says why and can be asked again', async (t) => {
  const message = (id: string): HistoryMessage => ({ message_id: id, role: 'user', agent: 'poe_llm', reply_to: null, status: 'completed', created_at: '2025-06-01T00:00:00Z', updated_at: '2025-06-01T00:00:00Z', contents: [] });
  const asked: string[] = [];
  let fail = true;
  const { actor } = session({
    loaded: { ...empty('s-1'), history: { position: 9, messages: [message('m3')], earlier: 'c3' } },
    earlier: async (before) => {
      asked.push(before);
      if (fail) throw new Error('网络错误');
      return before === 'c3' ? { position: 9, messages: [message('m2')], earlier: 'c2' } : { position: 9, messages: [message('m1')], earlier: null };
    },
  });
  actor.send({ type: 'history.earlier' });
  t.true(actor.getSnapshot().matches({ ready: { earlier: 'loading' } }));
  await tick();
  t.is(actor.getSnapshot().context.earlierError, '网络错误');
  t.deepEqual(actor.getSnapshot().context.conversation.messages.map((shown) => shown.id), ['m3'], 'nothing changed');
  fail = false;
  actor.send({ type: 'history.earlier' });
  t.is(actor.getSnapshot().context.earlierError, null);
  actor.send({ type: 'history.earlier' });
  await tick();
  actor.send({ type: 'history.earlier' });
  await tick();
  t.deepEqual(actor.getSnapshot().context.conversation.messages.map((shown) => shown.id), ['m1', 'm2', 'm3']);
  t.deepEqual(asked, ['c3', 'c3', 'c2'], 'one read per page, none while one is under way');
  actor.send({ type: 'history.earlier' });
  t.true(actor.getSnapshot().matches({ ready: { earlier: 'idle' } }), 'the start reached: nothing more to ask');
  t.is(asked.length, 3);
});
