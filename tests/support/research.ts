import { randomUUID } from 'node:crypto';
import type { EventStore } from '@scriptorium/infra/eventstore/port';
import { conversationStream } from '@scriptorium/domain/conversation/conversation';
import type { Client } from './app.ts';
import { openSocket, type TestSocket } from './socket.ts';

/** A new session with a socket subscribed to it. */
export async function watchedSession(baseUrl: string, user: Client, clientId: string): Promise<{ sessionId: string; socket: TestSocket }> {
  const sessionId = (await user.request('POST', '/backend/conversation/sessions', { client_id: clientId })).body.session_id as string;
  const socket = await openSocket(baseUrl, clientId, user.token);
  socket.send({ session_id: sessionId, agent: 'none', payload: { content_type: 'subscribe' } });
  await socket.next((m) => m.type === 'subscribed');
  return { sessionId, socket };
}

/**
 * Starts deep research and, if the agent asks, answers each clarification question with its first
 * option, as a user in a hurry would. Returns the reply and a matcher for its items by content type.
 */
export async function startResearch(user: Client, socket: TestSocket, sessionId: string, message: string) {
  const started = await user.request('POST', '/backend/conversation/research/start', { session_id: sessionId, message });
  if (started.status !== 200) throw new Error(`research/start: ${started.status} ${JSON.stringify(started.body)}`);
  const replyId = started.body.reply_id as string;
  const item = (type: string) => (m: any) => m.type === 'message' && m.content.message_id === replyId && m.content.content_type === type;
  const first = await socket.next((m) => item('clarification')(m) || item('plan')(m), 60_000);
  if (first.content.content_type === 'clarification') {
    const answers = first.content.questions.map((question: any) => ({
      id: question.id,
      question: question.question_content,
      selectedOptions: question.question_options.slice(0, 1),
      textInput: '',
      question_type: question.question_type,
    }));
    const answered = await user.request('POST', `/backend/conversation/research/${sessionId}/clarification_answer`, { answers });
    if (answered.status !== 200) throw new Error(`clarification_answer: ${answered.status}`);
  }
  return { replyId, item };
}

/** A session whose canvas holds a report the direct writing agent wrote offline (version 1). */
export async function sessionWithReport(user: Client): Promise<string> {
  const id = (await user.request('POST', '/backend/conversation/api/v2/research/create_session', { client_id: 'report-test', name: '报告' })).body.session_id as string;
  await user.request('POST', `/backend/conversation/sessions/${id}/dispatch`, { agent: 'direct_writing_agent', action: 'send', params: { text: '写一份关于固态电池安全性的简报', client_id: 'report-test' }, run_async: true });
  for (let tries = 0; tries < 300; tries++) {
    const canvas = await user.request('GET', `/backend/conversation/research/${id}/canvas`);
    if (canvas.body.versions?.length > 0 && !(await user.request('GET', `/backend/conversation/research/${id}/status`)).body.processing) return id;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the report was never written');
}

/**
 * Appends `count` finished exchanges (`question(index)` and a poe_llm reply of `reply(index)`) to a session
 * created over HTTP, as the agent records them, in one append: the reply is over before job dispatch
 * reads it, so no job starts. Returns the message ids in order.
 */
export async function appendExchanges(
  events: EventStore,
  sessionId: string,
  count: number,
  reply: (index: number) => string,
  question: (index: number) => string = (index) => `第 ${index + 1} 个问题`,
): Promise<string[]> {
  const at = new Date().toISOString();
  const ids: string[] = [];
  const appended = Array.from({ length: count }, (_, index) => {
    const asked = randomUUID();
    const answer = randomUUID();
    ids.push(asked, answer);
    const agent = 'poe_llm' as const;
    return [
      { type: 'UserMessagePosted', data: { sessionId, messageId: asked, content: question(index), agent, at } },
      { type: 'AgentReplyStarted', data: { sessionId, messageId: answer, agent, replyTo: asked, jobId: `seed-${answer}`, at } },
      { type: 'MessageChunksAppended', data: { sessionId, messageId: answer, agent, contentType: 'chat_chunk', seq: 0, text: reply(index) } },
      { type: 'AgentReplyCompleted', data: { sessionId, messageId: answer, agent, outcome: 'completed', at } },
    ].map((event) => ({ ...event, metadata: { at } }));
  }).flat();
  await events.appendToStream(conversationStream(sessionId), appended);
  return ids;
}
