import test from 'ava';
import type { WireContent } from '@scriptorium/domain/protocol/content';
import type { SessionMessage } from '@scriptorium/domain/protocol/ws';
import { applyMessage, applySubscribed, emptyConversation, fromHistory, redirectsResearch } from './conversation.ts';

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
        { message_id: 'u1', role: 'user', agent: 'poe_llm', reply_to: null, status: 'completed', created_at: at, contents: [stream[0]!.content] },
        { message_id: 'r1', role: 'assistant', agent: 'poe_llm', reply_to: 'u1', status: 'streaming', created_at: at, contents: [stream[1]!.content, stream[2]!.content] },
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
