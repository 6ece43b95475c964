import test from 'ava';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import { signUp, startTestApp } from '../support/app.ts';
import { openSocket } from '../support/socket.ts';

const HISTORY = 40;

/** Resolves once `count()` has not changed for a while: the server has answered everything it will. */
async function quiet(count: () => number): Promise<void> {
  for (let last = -1; last !== count(); ) {
    last = count();
    await new Promise((resolve) => setTimeout(resolve, 400));
  }
}

test('a flood of subscribe frames replays the history once and is refused with a code; the socket stays usable', async (t) => {
  const app = await startTestApp();
  t.teardown(() => app.stop());
  const user = await signUp(app.url, 'flooder');
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: 'flood' })).body.session_id as string;
  const at = new Date().toISOString();
  await app.services.events.appendToStream(
    conversationStream(sessionId),
    Array.from({ length: HISTORY }, (_, i) => ({ type: 'UserMessagePosted', data: { sessionId, messageId: `m${i}`, content: `第 ${i} 条`, agent: 'poe_llm', at }, metadata: { at, userId: user.userId } })),
  );
  const socket = await openSocket(app.url, 'flood', user.token);
  t.teardown(() => socket.close());
  const frame = JSON.stringify({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe', last_position: 0 } });
  for (let i = 0; i < 2000; i++) socket.send(frame);
  const refused = await socket.next((m) => m.type === 'error' && m.code === 'socket.rate_limited');
  t.is(refused.error_message, '消息过于频繁，请稍后再试');
  await quiet(() => socket.received.length);
  const replayed = socket.received.filter((m) => m.type === 'message');
  t.is(replayed.length, HISTORY, 'each message of the history reached this socket once');
  t.true(socket.received.filter((m) => m.type === 'error').length < 10, 'the refusal is said once per burst, not once per frame');
  const heartbeats = socket.received.filter((m) => m.type === 'heartbeat').length;
  await socket.next((m) => m.type === 'heartbeat' && socket.received.filter((x) => x.type === 'heartbeat').length > heartbeats);
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((m) => m.type === 'subscribed' && socket.received.indexOf(m) > socket.received.indexOf(refused));
});
