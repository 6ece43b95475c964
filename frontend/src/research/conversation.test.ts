import test from 'ava';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import type { SessionMessage } from '@scriptorium/domain/protocol/ws';
import { applyMessage, applySubscribed, emptyConversation, fromHistory, prependEarlier, redirectsResearch, withNewestPage } from './conversation.ts';
import type { HistoryMessage } from '@scriptorium/domain/protocol/http/conversation';

const at = '2025-05-01T10:00:00.000Z';
type Unstamped = WireContent extends infer C ? (C extends WireContent ? Omit<C, 'agent' | 'timestamp' | 'updated_at'> & Partial<Pick<C, 'agent'>> : never) : never;
const wire = (position: number, content: Unstamped): SessionMessage => ({
  type: 'message',
  session_id: 's',
  position,
  content: { agent: 'poe_llm', timestamp: at, updated_at: at, ...content } as WireContent,
});

const stream = [
  wire(1, { agent: 'user', content_type: 'user_input', message_id: 'u1', content: '你好', target_agent: 'poe_llm' }),
  wire(2, { content_type: 'message_start', message_id: 'r1', reply_to: 'u1' }),
  wire(3, { content_type: 'chat_chunk', message_id: 'r1', content: '你好，' }),
  wire(4, { content_type: 'chat_chunk', message_id: 'r1', content: '我是助手。' }),
  wire(5, { content_type: 'message_end', message_id: 'r1', outcome: 'completed' }),
];

const replyText = (state: ReturnType<typeof emptyConversation>) =>
  state.messages
    .find((message) => message.id === 'r1')
    ?.contents.filter((item) => item.content_type === 'chat_chunk')
    .map((item) => item.content)
    .join('|');

test('live messages fold into user and assistant messages with joined chunks', (t) => {
  const state = stream.reduce(applyMessage, emptyConversation());
  t.is(state.messages.length, 2);
  t.is(state.messages[0]?.role, 'user');
  t.is(state.messages[0]?.agent, 'poe_llm');
  t.is(replyText(state), '你好，我是助手。');
  t.is(state.messages[1]?.status, 'completed');
  t.is(state.position, 5);
  t.false(state.busy);
});

test('a replayed or resent position is dropped, so nothing is doubled after a reconnect', (t) => {
  let state = stream.slice(0, 3).reduce(applyMessage, emptyConversation());
  t.true(state.busy);
  // The socket drops; on resubscribe the server resends from the last position the client had.
  state = [stream[2]!, stream[3]!, stream[3]!, stream[4]!].reduce(applyMessage, state);
  t.is(replyText(state), '你好，我是助手。');
});

test('history then live continues the same message without loss', (t) => {
  const history = fromHistory(
    {
      position: 3,
      messages: [
        { message_id: 'u1', role: 'user', agent: 'poe_llm', reply_to: null, status: 'completed', created_at: at, updated_at: at, contents: [stream[0]!.content] },
        { message_id: 'r1', role: 'assistant', agent: 'poe_llm', reply_to: 'u1', status: 'streaming', created_at: at, updated_at: at, contents: [stream[1]!.content, stream[2]!.content] },
      ],
    },
    true,
  );
  const state = stream.reduce(applyMessage, history);
  t.is(replyText(state), '你好，我是助手。');
  t.is(state.messages.length, 2);
});

test('status processing sets busy and paused clears it', (t) => {
  let state = applyMessage(emptyConversation(), wire(1, { content_type: 'status', message_id: 'status-1', status: 'processing' }));
  t.true(state.busy);
  t.is(state.messages.length, 0);
  state = applyMessage(state, wire(2, { content_type: 'status', message_id: 'status-2', status: 'paused' }));
  t.false(state.busy);
});

test('subscribed moves the position forward only', (t) => {
  const state = applySubscribed({ ...emptyConversation(), position: 9 }, { type: 'subscribed', session_id: 's', position: 4 });
  t.is(state.position, 9);
});

test('a message redirects a research a pause or a failure cut short, and nothing else', (t) => {
  const research = [
    wire(1, { agent: 'user', content_type: 'user_input', message_id: 'u1', content: '固态电池的技术路线', target_agent: 'deep_cognition' }),
    wire(2, { agent: 'deep_cognition', content_type: 'message_start', message_id: 'r1', reply_to: 'u1' }),
  ];
  const ended = (outcome: 'interrupted' | 'failed' | 'completed') =>
    [...research, wire(3, { agent: 'deep_cognition', content_type: 'message_end', message_id: 'r1', outcome }), wire(4, { content_type: 'status', message_id: 'status-1', status: 'paused' })].reduce(applyMessage, emptyConversation());
  t.true(redirectsResearch(ended('interrupted')));
  t.true(redirectsResearch(ended('failed')));
  t.false(redirectsResearch(ended('completed')), 'a finished research: a message is a new question');
  t.false(redirectsResearch(research.reduce(applyMessage, emptyConversation())), 'a research at work: a message is an instruction to it');
  t.false(redirectsResearch([...stream.slice(0, 2), wire(3, { content_type: 'message_end', message_id: 'r1', outcome: 'interrupted' })].reduce(applyMessage, emptyConversation())), 'a paused chat reply is no research');
});

const said = (id: string, text: string): HistoryMessage => ({
  message_id: id,
  role: id.startsWith('u') ? 'user' : 'assistant',
  agent: 'poe_llm',
  reply_to: null,
  status: 'completed',
  created_at: at,
  updated_at: at,
  contents: [{ agent: 'poe_llm', timestamp: at, updated_at: at, content_type: 'chat_chunk', message_id: id, content: text } as WireContent],
});
const ids = (state: ReturnType<typeof emptyConversation>) => state.messages.map((message) => message.id);

test('an earlier page goes before what is shown, each message once, and brings the cursor before it', (t) => {
  const newest = fromHistory({ position: 9, messages: [said('u3', 'q3'), said('r3', 'a3')], earlier: 'c3' }, false);
  t.is(newest.earlier, 'c3');
  const live = applyMessage(newest, wire(10, { content_type: 'chat_chunk', message_id: 'r3', content: '…' }));
  const more = prependEarlier(live, { position: 9, messages: [said('u2', 'q2'), said('r2', 'a2'), said('u3', 'stale')], earlier: 'c2' });
  t.deepEqual(ids(more), ['u2', 'r2', 'u3', 'r3']);
  t.is(more.messages[2]!.contents[0]!.content_type === 'chat_chunk' && more.messages[2]!.contents[0]!.content, 'q3', 'the shown copy stays');
  t.is(more.position, 10);
  t.is(more.earlier, 'c2');
  t.is(prependEarlier(more, { position: 9, messages: [said('u1', 'q1')], earlier: null }).earlier, null, 'the start reached');
  t.is(fromHistory({ position: 1, messages: [] }, false).earlier, null, 'a whole history has nothing before it');
});

test('a newer read of the newest page keeps the earlier pages the reader loaded above it', (t) => {
  const shown = prependEarlier(fromHistory({ position: 9, messages: [said('u2', 'q2'), said('r2', 'a2')], earlier: 'c2' }, true), { position: 9, messages: [said('u1', 'q1'), said('r1', 'a1')], earlier: null });
  const fresh = fromHistory({ position: 12, messages: [said('u2', 'q2'), said('r2', 'a2 more')], earlier: 'c2' }, false);
  const merged = withNewestPage(shown, fresh);
  t.deepEqual(ids(merged), ['u1', 'r1', 'u2', 'r2']);
  t.is(merged.earlier, null);
  t.false(merged.busy);
  t.is(merged.position, 12);
  // One more exchange pushed the oldest one of the page out: it stays, and the cursor before it too.
  const onlyNewest = fromHistory({ position: 9, messages: [said('u2', 'q2'), said('r2', 'a2')], earlier: 'c2' }, false);
  const later = withNewestPage(onlyNewest, fromHistory({ position: 15, messages: [said('u3', 'q3'), said('r3', 'a3')], earlier: 'c3' }, false));
  t.deepEqual(ids(later), ['u2', 'r2', 'u3', 'r3']);
  t.is(later.earlier, 'c2');
  t.deepEqual(ids(withNewestPage(onlyNewest, fromHistory({ position: 15, messages: [said('u2', 'q2')], earlier: null }, false))), ['u2'], 'a whole read stands alone');
});
